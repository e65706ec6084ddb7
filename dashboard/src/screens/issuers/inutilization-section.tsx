import { Alert, Button, Grid, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { api, orThrow, type paths } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { t } from '../../i18n/index.js';
import { formatDateTime } from '../../i18n/format.js';
import { fill, type Issuer } from './model.js';
import { Facts, Section } from './section.js';
import { useKeyedForm } from './use-form.js';
import { useIssuerAction } from './use-issuer-action.js';

type Inutilization = paths['/v1/issuers/{id}/inutilization']['post']['responses'][201]['content']['application/json'];

/**
 * Voids a range of NFC-e numbers never used (POST /v1/issuers/{id}/inutilization) and shows the
 * authority's answer: voided with its protocol, or rejected with the reason. The 15-character rule
 * of the justification is the gateway's: its message is shown on the field.
 */
export function InutilizationSection({ issuer }: { issuer: Issuer }) {
  const form = useKeyedForm({ serie: 1 as number | string, numero_inicial: '' as number | string, numero_final: '' as number | string, justification: '' });
  const v = form.values;
  const { busy, error, errors, done, submit } = useIssuerAction();
  const [result, setResult] = useState<Inutilization | null>(null);
  const save = submit(async () => {
    const body = { serie: Number(v.serie), numero_inicial: Number(v.numero_inicial), numero_final: Number(v.numero_final), justification: v.justification };
    setResult(await orThrow(api.POST('/v1/issuers/{id}/inutilization', { params: { path: { id: issuer.id } }, body, idempotencyKey: form.idempotencyKey() })));
  });
  return (
    <Section title={t.issuers.inutilization} testId="inutilization">
      <Text size="sm">{t.issuers.inutilizationText}</Text>
      <form onSubmit={save} noValidate>
        <Stack gap="sm">
          <Grid>
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <NumberInput label={t.issuers.inutSerie} required min={0} max={999} allowDecimal={false} value={v.serie} onChange={(x) => form.set('serie', x)} error={errors.serie} />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 4 }}>
              <NumberInput label={t.issuers.inutFrom} required min={1} allowDecimal={false} value={v.numero_inicial} onChange={(x) => form.set('numero_inicial', x)} error={errors.numero_inicial} />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 4 }}>
              <NumberInput label={t.issuers.inutTo} required min={1} allowDecimal={false} value={v.numero_final} onChange={(x) => form.set('numero_final', x)} error={errors.numero_final} />
            </Grid.Col>
          </Grid>
          <Textarea
            label={t.issuers.inutJustification}
            description={fill(t.issuers.inutJustificationHint, { count: v.justification.length })}
            required
            maxLength={255}
            autosize
            minRows={2}
            {...form.text('justification')}
            error={errors.justification}
          />
          <ApiError error={error} />
          <Button type="submit" color="red.9" loading={busy} style={{ alignSelf: 'start' }}>
            {t.issuers.inutSubmit}
          </Button>
        </Stack>
      </form>
      {done && result && (
        <Alert color={result.status === 'voided' ? 'brand' : 'red'} title={t.issuers.inutResult[result.status]} role="status" data-testid="inutilization-result">
          <Facts
            items={[
              [t.issuers.inutRangeLabel, fill(t.issuers.inutRange, { serie: result.serie, from: result.numero_inicial, to: result.numero_final })],
              [t.issuers.inutProtocol, result.protocolo ?? '—'],
              [t.issuers.createdAt, formatDateTime(result.created_at)],
              ...(result.rejection ? ([[t.issuers.inutReason, `${result.rejection.code} – ${result.rejection.message}`]] as [string, string][]) : []),
            ]}
          />
        </Alert>
      )}
    </Section>
  );
}
