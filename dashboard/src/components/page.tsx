import { Center, Group, Loader, Stack, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { t } from '../i18n/index.js';
import { ApiError } from './api-error.js';

/** A screen: its title (also the document's), actions on the right, then the content. */
export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · ${t.appName}`;
  }, [title]);
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {title}
        </Title>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
      {children}
    </Stack>
  );
}

/** Loading, error (with retry) or the content of a query. */
export function Loaded<T>({ query, children }: { query: { data: T | undefined; error: unknown; isPending: boolean; refetch: () => unknown }; children: (data: T) => ReactNode }) {
  if (query.error) return <ApiError error={query.error} onRetry={() => void query.refetch()} />;
  if (query.isPending || query.data === undefined)
    return (
      <Center py="xl" aria-busy="true">
        {/* A status, so its name is announced (and axe allows aria-label on it: a bare span may not carry one). */}
        <Loader role="status" aria-label={t.loading} />
      </Center>
    );
  return <>{children(query.data)}</>;
}
