import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

/**
 * Listens to GET /v1/notifications/stream (server-sent events; same origin, so the session cookie
 * authenticates) and refreshes the list when a notification arrives. The browser reconnects by
 * itself with Last-Event-ID, and the gateway replays what was missed.
 */
export function useLiveNotifications(): void {
  const client = useQueryClient();
  useEffect(() => {
    const source = new EventSource('/v1/notifications/stream', { withCredentials: true });
    const arrived = () => void client.invalidateQueries({ queryKey: ['notifications'] });
    source.addEventListener('notification', arrived);
    return () => source.close();
  }, [client]);
}
