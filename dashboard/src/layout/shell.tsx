import { Anchor, AppShell, Badge, Burger, Button, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { api } from '../api/client.js';
import { Loaded } from '../components/page.js';
import { t } from '../i18n/index.js';
import { AREAS } from '../screens/registry.js';
import { Forbidden } from '../screens/not-found.js';
import { UnreadBadge } from '../screens/notifications/unread-badge.js';
import { useSession } from '../session.js';

/** The frame of every signed-in screen: the menu (only what the role reaches), the account, sign-out. */
export function Shell({ children }: { children: ReactNode }) {
  const session = useSession();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const visible = AREAS.filter((a) => a.anyOf.length === 0 || a.anyOf.some((s) => session.can(s)));
  const current = AREAS.filter((a) => a.path === '/' ? location.pathname === '/' : location.pathname.startsWith(a.path)).at(-1);
  const allowed = !current || visible.includes(current);
  const signOut = async () => {
    await api.POST('/v1/auth/logout');
    client.setQueryData(['session'], null);
    navigate('/sign-in');
  };
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <Anchor href="#main" className="skip-link">
        {t.skipToContent}
      </Anchor>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t.menu} />
            <Text fw={700} component={Link} to="/">
              {t.appName}
            </Text>
            {session.account && (
              <Badge color={session.account.environment === 'production' ? 'green' : 'yellow'} variant="light" visibleFrom="xs">
                {session.account.environment === 'production' ? t.production : t.sandbox}
              </Badge>
            )}
          </Group>
          <Group gap="sm" wrap="nowrap">
            <UnreadBadge />
            <Text size="sm" visibleFrom="sm" data-testid="whoami">
              {session.me.user.email} · {t.roles[session.me.role] ?? session.me.role}
            </Text>
            <Button variant="subtle" size="xs" onClick={() => void signOut()}>
              {t.signOut}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t.menu}>
        <ScrollArea>
          <nav>
            {visible.map((a) => (
              <NavLink
                key={a.path}
                component={Link}
                to={a.path}
                label={a.label}
                active={current === a}
                aria-current={current === a ? 'page' : undefined}
                onClick={close}
              />
            ))}
          </nav>
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <Suspense fallback={<Loaded query={{ data: undefined, error: null, isPending: true, refetch: () => undefined }}>{() => null}</Loaded>}>
          {allowed ? children : <Forbidden />}
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
