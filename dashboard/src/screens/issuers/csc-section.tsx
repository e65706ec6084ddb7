import { Alert, Button, Grid, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { t } from '../../i18n/index.js';
import { formatDateTime } from '../../i18n/format.js';
import { fill, type Issuer } from './model.js';
import { Section } from './section.js';
import { useKeyedForm } from './use-form.js';
import { useIssuerAction } from './use-issuer-action.js';

/**
 * The CSC that signs the NFC-e QR code. Only its id is ever shown: the code leaves the browser once
 * (POST /v1/issuers/{id}/csc) and the input is emptied as soon as the gateway has it.
 */
export function CscSection({ issuer, canWrite }: { issuer: Issuer; canWrite: boolean }) {
  const form = useKeyedForm({ id_csc: issuer.csc?.id_csc ?? '', csc: '' });
  const { busy, error, errors, done: saved, submit } = useIssuerAction();
  const save = submit(async () => {
    const body = { id_csc: form.values.id_csc, csc: form.values.csc };
    await orThrow(api.POST('/v1/issuers/{id}/csc', { params: { path: { id: issuer.id } }, body, idempotencyKey: form.idempotencyKey() }));
    form.reset({ id_csc: body.id_csc, csc: '' });
  });
  return (
    <Section title={t.issuers.csc} testId="csc">
      <Text size="sm">{issuer.csc ? fill(t.issuers.cscRegistered, { id: issuer.csc.id_csc, at: formatDateTime(issuer.csc.registered_at) }) : t.issuers.cscNone}</Text>
      {saved && (
        <Alert color="brand" role="status">
          {t.issuers.cscSaved}
        </Alert>
      )}
      {canWrite && (
        <form onSubmit={save} noValidate>
          <Stack gap="sm">
            <Grid>
              <Grid.Col span={{ base: 12, sm: 4 }}>
                <TextInput label={t.issuers.cscId} description={t.issuers.cscIdHint} required maxLength={6} inputMode="numeric" {...form.text('id_csc')} error={errors.id_csc} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 8 }}>
                <PasswordInput label={t.issuers.cscToken} description={t.issuers.cscTokenHint} required maxLength={36} autoComplete="off" {...form.text('csc')} error={errors.csc} />
              </Grid.Col>
            </Grid>
            <ApiError error={error} />
            <Button type="submit" loading={busy} style={{ alignSelf: 'start' }}>
              {t.issuers.cscSave}
            </Button>
          </Stack>
        </form>
      )}
    </Section>
  );
}
