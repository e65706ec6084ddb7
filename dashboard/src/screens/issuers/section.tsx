import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import { ApiError } from '../../components/api-error.js';
import { t } from '../../i18n/index.js';

/** One part of the issuer's page: a titled card (h2), actions at the right of the title. */
export function Section({ title, actions, children, testId }: { title: string; actions?: ReactNode; children: ReactNode; testId?: string }) {
  const id = useId();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id} data-testid={testId}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id={id}>
            {title}
          </Title>
          {actions}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/** Label/value pairs as a description list. */
export function Facts({ items }: { items: [label: string, value: ReactNode][] }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs" m={0}>
      {items.map(([label, value]) => (
        <div key={label}>
          <Text component="dt" size="sm" fw={600}>
            {label}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

/** The end of an editing form: the gateway's error, then save and cancel. */
export function SaveOrCancel({ error, busy, save, onCancel }: { error: unknown; busy: boolean; save: string; onCancel: () => void }) {
  return (
    <>
      <ApiError error={error} />
      <Group>
        <Button type="submit" loading={busy}>
          {save}
        </Button>
        <Button variant="default" onClick={onCancel}>
          {t.cancel}
        </Button>
      </Group>
    </>
  );
}
