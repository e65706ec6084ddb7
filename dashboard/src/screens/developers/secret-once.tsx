import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { t } from '../../i18n/index.js';

/**
 * A secret the API returns once (an API key, a webhook signing secret). It lives only in the state
 * of the screen that received it and is dropped when this closes: nothing renders it again.
 */
export function SecretOnce({ title, label, secret, onClose, children }: { title: string; label: string; secret: string | null; onClose: () => void; children?: ReactNode }) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title={title} size="lg" closeOnClickOutside={false}>
      {secret !== null && (
        <Stack>
          <Alert color="red" title={t.developers.secretOnce.warning} role="status" />
          {children}
          <Text size="sm" fw={600} id="secret-once-label">
            {label}
          </Text>
          <Code block aria-labelledby="secret-once-label" data-testid="secret-once" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
            {secret}
          </Code>
          <Group justify="space-between" wrap="wrap">
            <CopyButton value={secret}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy}>
                  {copied ? t.developers.secretOnce.copied : t.developers.secretOnce.copy}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>{t.developers.secretOnce.done}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** "Are you sure?" before something that cannot be undone (revoke a key, delete an endpoint). */
export function Confirm({ opened, title, text, action, busy, error, onConfirm, onClose, color = 'red' }: {
  opened: boolean;
  color?: string;
  title: string;
  text: string;
  action: string;
  busy: boolean;
  error?: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <Stack>
        <Text size="sm">{text}</Text>
        {error}
        <Group justify="flex-end" wrap="wrap">
          <Button variant="default" onClick={onClose}>
            {t.cancel}
          </Button>
          <Button color={color} loading={busy} onClick={onConfirm}>
            {action}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
