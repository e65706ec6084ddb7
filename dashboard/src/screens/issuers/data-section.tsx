import { Button, Grid, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api, orThrow } from '../../api/client.js';
import { t } from '../../i18n/index.js';
import { formatDateTime, formatTaxId } from '../../i18n/format.js';
import { AddressFields, addressBody, EMPTY_ADDRESS } from './address-fields.js';
import { fill, type Issuer } from './model.js';
import { RegimeSelect } from './regime-select.js';
import { Facts, SaveOrCancel, Section } from './section.js';
import { useKeyedForm } from './use-form.js';
import { useIssuerAction } from './use-issuer-action.js';

function addressLine(e: NonNullable<Issuer['endereco']>): string {
  return [`${e.logradouro}, ${e.numero}`, e.complemento, e.bairro, `${e.municipio ?? e.codigo_municipio}`, `CEP ${e.cep}`, e.telefone].filter(Boolean).join(' · ');
}

/** What identifies the issuer; members who may change it edit it here (PATCH /v1/issuers/{id}). */
export function DataSection({ issuer, canWrite }: { issuer: Issuer; canWrite: boolean }) {
  const [editing, setEditing] = useState(false);
  const contingency = issuer.contingency ? fill(t.issuers.contingencyMode[issuer.contingency.mode]!, { seconds: issuer.contingency.wait_seconds }) : t.issuers.contingencyDefault;
  return (
    <Section
      title={t.issuers.data}
      actions={canWrite && !editing && <Button variant="light" size="xs" onClick={() => setEditing(true)}>{t.issuers.editData}</Button>}
    >
      {editing ? (
        <EditIssuerForm issuer={issuer} onDone={() => setEditing(false)} />
      ) : (
        <Facts
          items={[
            [t.issuers.razaoSocial, issuer.razao_social],
            [t.issuers.nomeFantasia, issuer.nome_fantasia ?? '—'],
            [t.issuers.cnpj, formatTaxId(issuer.cnpj)],
            [t.issuers.ie, issuer.ie],
            [t.issuers.uf, issuer.uf],
            [t.issuers.ambiente, t.issuers.environment[issuer.ambiente] ?? issuer.ambiente],
            [t.issuers.regimeLabel, t.issuers.regime[issuer.regime_tributario] ?? issuer.regime_tributario],
            [t.issuers.contingency, contingency],
            [t.issuers.address, issuer.endereco ? addressLine(issuer.endereco) : t.issuers.noAddress],
            [t.issuers.createdAt, formatDateTime(issuer.created_at)],
          ]}
        />
      )}
    </Section>
  );
}

function EditIssuerForm({ issuer, onDone }: { issuer: Issuer; onDone: () => void }) {
  const e = issuer.endereco;
  const form = useKeyedForm({
    razao_social: issuer.razao_social,
    nome_fantasia: issuer.nome_fantasia ?? '',
    ie: issuer.ie,
    regime_tributario: issuer.regime_tributario,
    endereco: e ? { ...EMPTY_ADDRESS, ...e, complemento: e.complemento ?? '', telefone: e.telefone ?? '' } : EMPTY_ADDRESS,
  });
  const v = form.values;
  const { busy, error, errors, submit } = useIssuerAction();
  const save = submit(async () => {
    const body = {
      razao_social: v.razao_social,
      nome_fantasia: v.nome_fantasia || null,
      ie: v.ie,
      regime_tributario: v.regime_tributario,
      endereco: addressBody(v.endereco),
    };
    await orThrow(api.PATCH('/v1/issuers/{id}', { params: { path: { id: issuer.id } }, body, idempotencyKey: form.idempotencyKey() }));
    onDone();
  });
  return (
    <form onSubmit={save} noValidate>
      <Stack>
        <Grid>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label={t.issuers.razaoSocial} required maxLength={60} {...form.text('razao_social')} error={errors.razao_social} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label={t.issuers.nomeFantasia} maxLength={60} {...form.text('nome_fantasia')} error={errors.nome_fantasia} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label={t.issuers.ie} required maxLength={20} {...form.text('ie')} error={errors.ie} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <RegimeSelect value={v.regime_tributario} error={errors.regime_tributario} onChange={(r) => form.set('regime_tributario', r)} />
          </Grid.Col>
        </Grid>
        <AddressFields uf={issuer.uf} value={v.endereco} municipioName={e?.municipio} errors={errors} onChange={(a) => form.set('endereco', a)} />
        <SaveOrCancel error={error} busy={busy} save={t.issuers.saveData} onCancel={onDone} />
      </Stack>
    </form>
  );
}
