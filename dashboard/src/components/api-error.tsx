import { Alert, Button, List, Text } from '@mantine/core';
import { FiscalGatewayError, errorText } from '../api/client.js';
import { t } from '../i18n/index.js';

/**
 * A failed call as the gateway said it (in Portuguese: every call asks Accept-Language pt-BR,
 * api/client.ts): its message, each field it named with what to fix, and
 * the request id support asks for. Screens never invent their own wording for API errors; a few
 * refusals a member meets on the team and billing screens also get a line in Portuguese (common.ts errorCodes),
 * and so does every 429, with the wait its Retry-After asks.
 */
export function ApiError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (!error) return null;
  const e = error instanceof FiscalGatewayError ? error : null;
  const line = e ? (t.errorCodes[e.code] ?? (e.status === 429 ? t.rateLimited(e.retryAfter) : undefined)) : undefined;
  return (
    <Alert color="red" title={t.errorTitle} role="alert" data-testid="api-error">
      {line && <Text size="sm" fw={500} mb={4}>{line}</Text>}
      <Text size="sm">{errorText(error)}</Text>
      {e && e.details.length > 0 && (
        <List size="sm" mt="xs">
          {e.details.map((d) => (
            <List.Item key={`${d.field}:${d.message}`}>
              <Text span ff="monospace" size="sm">{d.field}</Text>: {d.message}
            </List.Item>
          ))}
        </List>
      )}
      {e?.requestId && (
        <Text size="xs" c="dimmed" mt="xs">
          {t.requestId}: {e.requestId}
        </Text>
      )}
      {onRetry && (
        <Button size="xs" variant="light" mt="sm" onClick={onRetry}>
          {t.retry}
        </Button>
      )}
    </Alert>
  );
}
