import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Route, Routes } from 'react-router';
import { api, orThrow, type paths } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { Loaded, Page } from '../../components/page.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { useLiveNotifications } from './live.js';

type Notification = paths['/v1/notifications']['get']['responses'][200]['content']['application/json']['data'][number];

function Item({ n }: { n: Notification }) {
  const session = useSession();
  const client = useQueryClient();
  const read = useMutation({
    mutationFn: () => orThrow(api.POST('/v1/notifications/{id}/read', { params: { path: { id: n.id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['notifications'] }),
  });
  return (
    <Card withBorder component="li" data-testid="notification" data-unread={!n.read}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h5">
            {n.title}
          </Title>
          <Badge variant="light" color={n.read ? 'gray' : 'blue'}>
            {n.read ? t.notifications.read : t.notifications.unread}
          </Badge>
        </Group>
        <Text size="sm">{n.body}</Text>
        <Group justify="space-between" wrap="wrap">
          <Text size="xs" c="dimmed">
            {formatDateTime(n.created_at)}
          </Text>
          {!n.read && session.can('notifications:write') && (
            <Button size="xs" variant="light" loading={read.isPending} onClick={() => read.mutate()} aria-label={t.notifications.markReadOf(n.title)}>
              {t.notifications.markRead}
            </Button>
          )}
        </Group>
        <ApiError error={read.error} />
      </Stack>
    </Card>
  );
}

/** In-app notifications, unread first, arriving live over server-sent events. */
function NotificationsScreen() {
  useLiveNotifications();
  const list = useInfiniteQuery({
    queryKey: ['notifications'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => orThrow(api.GET('/v1/notifications', { params: { query: { limit: 20, starting_after: pageParam } } })),
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
  });
  return (
    <Page title={t.notifications.title}>
      <Text size="sm">{t.notifications.live}</Text>
      <Loaded query={list}>
        {(pages) => {
          const items = pages.pages.flatMap((p) => p.data);
          const unread = items.filter((n) => !n.read).length;
          return (
            <Stack>
              <Text size="sm" role="status" data-testid="unread-count">
                {t.notifications.unreadCount(unread)}
              </Text>
              {items.length === 0 ? (
                <Text>{t.notifications.empty}</Text>
              ) : (
                <Stack component="ul" gap="sm" p={0} style={{ listStyle: 'none' }}>
                  {items.map((n) => (
                    <Item key={n.id} n={n} />
                  ))}
                </Stack>
              )}
              {list.hasNextPage && (
                <Button variant="default" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
                  {t.more}
                </Button>
              )}
            </Stack>
          );
        }}
      </Loaded>
    </Page>
  );
}

export default function Notifications() {
  return (
    <Routes>
      <Route index element={<NotificationsScreen />} />
    </Routes>
  );
}
