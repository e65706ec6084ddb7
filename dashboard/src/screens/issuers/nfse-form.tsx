import { Grid, NativeSelect, NumberInput, Stack, TextInput } from '@mantine/core';
import { api, orThrow } from '../../api/client.js';
import { t } from '../../i18n/index.js';
import type { Issuer } from './model.js';
import { SaveOrCancel } from './section.js';
import { useKeyedForm } from './use-form.js';
import { useIssuerAction } from './use-issuer-action.js';

type Settings = NonNullable<Issuer['nfse']>;
const PROFILES: Settings['signature_profile'][] = ['rsa-sha1-c14n', 'rsa-sha256-exc-c14n'];
const options = (words: Record<string, string>) => Object.entries(words).map(([value, label]) => ({ value, label }));

/** The NFS-e settings (PATCH /v1/issuers/{id} with `nfse`): a first save starts NFS-e for the issuer. */
export function NfseForm({ issuer, onDone }: { issuer: Issuer; onDone: () => void }) {
  const n = issuer.nfse;
  const form = useKeyedForm({
    municipal_registration: n?.municipal_registration ?? '',
    simples_regime: n?.simples_regime === null || n === null ? '' : String(n.simples_regime),
    special_regime: String(n?.special_regime ?? 0),
    dps_series: (n?.dps_series ?? 1) as number | string,
    signature_profile: n?.signature_profile ?? 'rsa-sha1-c14n',
  });
  const v = form.values;
  const { busy, error, errors, submit } = useIssuerAction();
  const save = submit(async () => {
    const nfse = {
      municipal_registration: v.municipal_registration || null,
      simples_regime: v.simples_regime ? (Number(v.simples_regime) as 1 | 2 | 3) : null,
      special_regime: Number(v.special_regime) as Settings['special_regime'],
      dps_series: Number(v.dps_series),
      signature_profile: v.signature_profile,
    };
    await orThrow(api.PATCH('/v1/issuers/{id}', { params: { path: { id: issuer.id } }, body: { nfse }, idempotencyKey: form.idempotencyKey() }));
    onDone();
  });
  return (
    <form onSubmit={save} noValidate>
      <Stack gap="sm">
        <Grid>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label={t.issuers.nfseIm} description={t.issuers.nfseImHint} maxLength={15} {...form.text('municipal_registration')} error={errors['nfse.municipal_registration']} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <NumberInput label={t.issuers.dpsSeries} required min={1} max={49_999} allowDecimal={false} value={v.dps_series} onChange={(x) => form.set('dps_series', x)} error={errors['nfse.dps_series']} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <NativeSelect
              label={t.issuers.nfseSimples}
              value={v.simples_regime}
              data={[{ value: '', label: t.issuers.nfseNoSimples }, ...options(t.issuers.simplesRegime)]}
              onChange={(e) => form.set('simples_regime', e.currentTarget.value)}
              error={errors['nfse.simples_regime']}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <NativeSelect label={t.issuers.nfseSpecial} value={v.special_regime} data={options(t.issuers.specialRegime)} onChange={(e) => form.set('special_regime', e.currentTarget.value)} error={errors['nfse.special_regime']} />
          </Grid.Col>
          <Grid.Col span={12}>
            <NativeSelect
              label={t.issuers.nfseSignature}
              value={v.signature_profile}
              data={PROFILES}
              onChange={(e) => form.set('signature_profile', e.currentTarget.value as Settings['signature_profile'])}
              error={errors['nfse.signature_profile']}
            />
          </Grid.Col>
        </Grid>
        <SaveOrCancel error={error} busy={busy} save={t.issuers.nfseSave} onCancel={onDone} />
      </Stack>
    </form>
  );
}
