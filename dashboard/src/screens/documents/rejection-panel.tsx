import { Alert, List, Stack, Text } from '@mantine/core';
import { t } from '../../i18n/index.js';
import type { AnyRecord } from './families.js';

type Rejection = NonNullable<AnyRecord['rejection']>;

/**
 * Why the authority refused the note, in full: its code and message, then the gateway's reading of
 * it (the request field at fault and what to fix), and every further error Sefin listed.
 */
export function RejectionPanel({ rejection }: { rejection: Rejection }) {
  const errors = 'errors' in rejection ? (rejection.errors ?? []) : [];
  return (
    <Alert color="red" variant="light" title={t.documents.rejectionTitle} role="region" aria-label={t.documents.rejectionTitle} data-testid="rejection">
      <Stack gap={6}>
        <Text size="sm">
          <strong>{t.documents.rejectionCode}:</strong> {rejection.code}
        </Text>
        <Text size="sm">
          <strong>{t.documents.rejectionMessage}:</strong> {rejection.message}
        </Text>
        {rejection.field && (
          <Text size="sm">
            <strong>{t.documents.rejectionField}:</strong>{' '}
            <Text span ff="monospace" size="sm">
              {rejection.field}
            </Text>
          </Text>
        )}
        {rejection.hint && (
          <Text size="sm">
            <strong>{t.documents.rejectionHint}:</strong> {rejection.hint}
          </Text>
        )}
        {errors.length > 1 && (
          <>
            <Text size="sm" fw={700}>
              {t.documents.rejectionErrors}
            </Text>
            <List size="sm">
              {errors.map((e) => (
                <List.Item key={`${e.code}:${e.field ?? ''}`}>
                  {e.code}: {e.message}
                  {e.field ? ` (${e.field})` : ''}
                </List.Item>
              ))}
            </List>
          </>
        )}
      </Stack>
    </Alert>
  );
}
