import { Badge, Button, List, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { t } from '../../i18n/index.js';
import { formatDateTime } from '../../i18n/format.js';
import type { Issuer } from './model.js';
import { Section } from './section.js';

const COLOR = { pass: 'brand', warn: 'yellow', fail: 'red', skip: 'gray' } as const;

/**
 * The doctor (GET /v1/issuers/{id}/diagnostics): run on demand, because it asks the state's
 * authorities; the gateway answers in Portuguese when asked to (Accept-Language).
 */
export function DiagnosticsSection({ issuer }: { issuer: Issuer }) {
  const run = useMutation({
    mutationFn: () => orThrow(api.GET('/v1/issuers/{id}/diagnostics', { params: { path: { id: issuer.id } }, headers: { 'accept-language': 'pt-BR' } })),
  });
  const report = run.data;
  return (
    <Section
      title={t.issuers.diagnostics}
      testId="diagnostics"
      actions={
        <Button variant="light" onClick={() => run.mutate()} loading={run.isPending}>
          {report ? t.issuers.diagnosticsAgain : t.issuers.diagnosticsRun}
        </Button>
      }
    >
      <Text size="sm">{t.issuers.diagnosticsText}</Text>
      <ApiError error={run.error} />
      {report && (
        <Stack gap="xs" aria-live="polite">
          <Text size="sm" fw={600} data-testid="diagnostics-verdict">
            {t.issuers.diagnosticsVerdict[report.verdict]} · {formatDateTime(report.checked_at)}
          </Text>
          <List spacing="xs" listStyleType="none" p={0}>
            {report.checks.map((c) => (
              <List.Item key={c.id}>
                <Badge color={COLOR[c.verdict]} variant="light" mr="xs">
                  {t.issuers.diagnosticsCheck[c.verdict]}
                </Badge>
                <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {c.message}
                </Text>
                {c.action && c.verdict !== 'pass' && (
                  <Text size="sm" c="dimmed" ml="md">
                    {c.action}
                  </Text>
                )}
              </List.Item>
            ))}
          </List>
        </Stack>
      )}
    </Section>
  );
}
