import { Button, Grid, NativeSelect, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { Page } from '../../components/page.js';
import { t } from '../../i18n/index.js';
import { AddressFields, addressBody, EMPTY_ADDRESS, type AddressValues } from './address-fields.js';
import { cleanCnpj, cnpjProblem, type CreateIssuerBody } from './model.js';
import { RegimeSelect } from './regime-select.js';
import { useKeyedForm } from './use-form.js';
import { useIssuerAction } from './use-issuer-action.js';

const CNPJ_WORDS = { shape: t.issuers.cnpjShape, digits: t.issuers.cnpjInvalid };

/**
 * Registers an issuer (POST /v1/issuers), then opens its page for the certificate and CSC. The
 * CNPJ's check digits are checked here first; every other rule is the gateway's, shown on its field.
 */
export function CreateIssuer() {
  const navigate = useNavigate();
  const form = useKeyedForm({
    cnpj: '',
    razao_social: '',
    nome_fantasia: '',
    ie: '',
    uf: '',
    ambiente: 'homologacao' as CreateIssuerBody['ambiente'],
    regime_tributario: 'simples' as CreateIssuerBody['regime_tributario'],
    endereco: EMPTY_ADDRESS as AddressValues,
  });
  const v = form.values;
  const [cnpjError, setCnpjError] = useState<string | null>(null);
  const { busy, error, errors, submit } = useIssuerAction();
  const ufs = useQuery({ queryKey: ['ufs'], queryFn: () => orThrow(api.GET('/v1/ufs')), staleTime: Infinity });

  const register = submit(async () => {
    const problem = cnpjProblem(v.cnpj, CNPJ_WORDS);
    setCnpjError(problem);
    if (problem) return;
    const body: CreateIssuerBody = {
      cnpj: cleanCnpj(v.cnpj),
      razao_social: v.razao_social,
      ie: v.ie,
      uf: v.uf,
      ambiente: v.ambiente,
      regime_tributario: v.regime_tributario,
      ...(v.nome_fantasia ? { nome_fantasia: v.nome_fantasia } : {}),
      endereco: addressBody(v.endereco),
    };
    const created = await orThrow(api.POST('/v1/issuers', { body, idempotencyKey: form.idempotencyKey() }));
    navigate(`/issuers/${created.id}`);
  });

  return (
    <Page title={t.issuers.createTitle}>
      <form onSubmit={register} noValidate>
        <Stack>
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label={t.issuers.cnpj}
                description={t.issuers.cnpjHint}
                required
                maxLength={18}
                {...form.text('cnpj')}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  form.set('cnpj', value);
                  // The error leaves as soon as the CNPJ is right, not on blur: leaving on blur, it
                  // moved the button up under a click started from this field (mousedown blurs), and
                  // the click was lost.
                  if (cnpjError && !cnpjProblem(value, CNPJ_WORDS)) setCnpjError(null);
                }}
                onBlur={() => setCnpjError(v.cnpj ? cnpjProblem(v.cnpj, CNPJ_WORDS) : null)}
                error={cnpjError ?? errors.cnpj}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label={t.issuers.ie} description={t.issuers.ieHint} required maxLength={20} {...form.text('ie')} error={errors.ie} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label={t.issuers.razaoSocial} required maxLength={60} autoComplete="organization" {...form.text('razao_social')} error={errors.razao_social} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label={t.issuers.nomeFantasia} maxLength={60} {...form.text('nome_fantasia')} error={errors.nome_fantasia} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <NativeSelect
                label={t.issuers.uf}
                required
                value={v.uf}
                error={errors.uf}
                data={[{ value: '', label: t.issuers.chooseUf }, ...(ufs.data?.data ?? []).map((u) => ({ value: u.code, label: `${u.code} – ${u.name}` }))]}
                onChange={(e) => {
                  form.set('uf', e.currentTarget.value);
                  form.set('endereco', { ...v.endereco, codigo_municipio: '' });
                }}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <NativeSelect
                label={t.issuers.ambiente}
                required
                value={v.ambiente}
                error={errors.ambiente}
                data={(['homologacao', 'producao'] as const).map((a) => ({ value: a, label: t.issuers.environment[a]! }))}
                onChange={(e) => form.set('ambiente', e.currentTarget.value as CreateIssuerBody['ambiente'])}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <RegimeSelect value={v.regime_tributario} error={errors.regime_tributario} onChange={(r) => form.set('regime_tributario', r)} />
            </Grid.Col>
          </Grid>
          <Title order={2} size="h4">
            {t.issuers.address}
          </Title>
          <AddressFields key={v.uf} uf={v.uf} value={v.endereco} errors={errors} onChange={(a) => form.set('endereco', a)} />
          <ApiError error={error} />
          <Button type="submit" loading={busy} style={{ alignSelf: 'start' }}>
            {t.issuers.createSubmit}
          </Button>
        </Stack>
      </form>
    </Page>
  );
}
