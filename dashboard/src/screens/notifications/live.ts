import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

// One stream per tab, shared by whoever listens (the header's badge and the notifications screen).
let source: EventSource | null = null;
let listeners = 0;

/**
 * Listens to GET /v1/notifications/stream (server-sent events; same origin, so the session cookie
 * authenticates) and refreshes the notification queries when one arrives. The browser reconnects by
 * itself with Last-Event-ID, and the gateway replays what was missed.
 */
export function useLiveNotifications(): void {
  const client = useQueryClient();
  useEffect(() => {
    source ??= new EventSource('/v1/notifications/stream', { withCredentials: true });
    listeners += 1;
    const stream = source;
    const arrived = () => void client.invalidateQueries({ queryKey: ['notifications'] });
    stream.addEventListener('notification', arrived);
    return () => {
      stream.removeEventListener('notification', arrived);
      listeners -= 1;
      if (listeners === 0) {
        stream.close();
        source = null;
      }
    };
  }, [client]);
}
