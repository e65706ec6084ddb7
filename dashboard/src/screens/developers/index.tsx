import { Button, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import { Page } from '../../components/page.js';
import { t } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import ApiKeys from './api-keys.js';
import Sandbox from './sandbox.js';
import WebhookDetail from './webhook-detail.js';
import Webhooks from './webhooks.js';

interface Section {
  path: string;
  label: string;
  allowed: boolean;
  element: ReactNode;
}

/**
 * Developers: API keys, webhooks with their deliveries and, in a sandbox account, the
 * sandbox's scenarios and captured mail. Each section shows only when the member's role reaches it.
 */
export default function Developers() {
  const session = useSession();
  const location = useLocation();
  const sections: Section[] = [
    { path: 'api-keys', label: t.nav.apiKeys, allowed: session.can('applications:write'), element: <ApiKeys /> },
    { path: 'webhooks', label: t.nav.webhooks, allowed: session.can('webhooks:write') || session.can('webhooks:read'), element: <Webhooks /> },
    { path: 'sandbox', label: t.nav.sandbox, allowed: session.account?.environment === 'sandbox', element: <Sandbox /> },
  ];
  const visible = sections.filter((s) => s.allowed);
  const guard = (s: Section, element: ReactNode) => (s.allowed ? element : <Text>{t.forbidden}</Text>);
  const webhooks = sections[1]!;
  return (
    <Page title={t.developers.title}>
      <Group component="nav" aria-label={t.developers.sections} gap="xs">
        {visible.map((s) => {
          const here = location.pathname.startsWith(`/developers/${s.path}`);
          return (
            <Button key={s.path} component={Link} to={`/developers/${s.path}`} variant={here ? 'filled' : 'light'} aria-current={here ? 'page' : undefined}>
              {s.label}
            </Button>
          );
        })}
      </Group>
      <Routes>
        <Route index element={visible[0] ? <Navigate to={visible[0].path} replace /> : <Text>{t.forbidden}</Text>} />
        {sections.map((s) => (
          <Route key={s.path} path={s.path} element={guard(s, s.element)} />
        ))}
        <Route path="webhooks/:id" element={guard(webhooks, <WebhookDetail />)} />
        <Route path="*" element={<Navigate to="/developers" replace />} />
      </Routes>
    </Page>
  );
}
