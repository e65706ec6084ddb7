import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, orThrow } from '../../api/client.js';
import { t } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { useLiveNotifications } from './live.js';

// The list comes unread first: the first page counts them (shown as 99+ past that).
const PAGE = 100;

function Count() {
  useLiveNotifications();
  const unread = useQuery({
    queryKey: ['notifications', 'unread'],
    queryFn: async () => (await orThrow(api.GET('/v1/notifications', { params: { query: { limit: PAGE } } }))).data.filter((n) => !n.read).length,
  });
  const n = unread.data ?? 0;
  if (n === 0) return null;
  return (
    <Badge component={Link} to="/notifications" variant="filled" aria-label={t.notifications.unreadCount(n)} data-testid="unread-badge">
      {n >= PAGE ? '99+' : n}
    </Badge>
  );
}

/** The header's count of unread notifications, live; nothing for a role that cannot read them. */
export function UnreadBadge() {
  const session = useSession();
  return session.can('notifications:read') ? <Count /> : null;
}
