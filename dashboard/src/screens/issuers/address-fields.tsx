import { Grid, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, orThrow } from '../../api/client.js';
import { t } from '../../i18n/index.js';

export interface AddressValues {
  logradouro: string;
  numero: string;
  complemento: string;
  bairro: string;
  codigo_municipio: string;
  cep: string;
  telefone: string;
}

export const EMPTY_ADDRESS: AddressValues = { logradouro: '', numero: '', complemento: '', bairro: '', codigo_municipio: '', cep: '', telefone: '' };

/** The API's body from the inputs: optional fields left empty are not sent. */
export function addressBody(a: AddressValues) {
  return {
    logradouro: a.logradouro,
    numero: a.numero,
    bairro: a.bairro,
    codigo_municipio: a.codigo_municipio,
    cep: a.cep,
    ...(a.complemento ? { complemento: a.complemento } : {}),
    ...(a.telefone ? { telefone: a.telefone } : {}),
  };
}

/**
 * The establishment's address; the municipality is searched among the state's (GET /v1/municipios,
 * by the start of its name) and kept as its IBGE code. `errors` are the gateway's, by field name.
 */
export function AddressFields(props: {
  uf: string;
  value: AddressValues;
  onChange: (a: AddressValues) => void;
  errors: Record<string, string | undefined>;
  /** The name of the municipality already chosen (editing), shown before any search. */
  municipioName?: string | null;
}) {
  const { uf, value, onChange, errors } = props;
  const [search, setSearch] = useState(props.municipioName ?? '');
  const [chosen, setChosen] = useState(value.codigo_municipio ? { value: value.codigo_municipio, label: props.municipioName ?? value.codigo_municipio } : null);
  const [q] = useDebouncedValue(search, 200);
  const found = useQuery({
    queryKey: ['municipios', uf, q],
    enabled: uf.length === 2,
    queryFn: () => orThrow(api.GET('/v1/municipios', { params: { query: { uf, limit: 20, ...(q ? { q } : {}) } } })),
    placeholderData: (previous) => previous,
  });
  const options = (found.data?.data ?? []).map((m) => ({ value: m.ibge_code, label: m.name }));
  if (chosen && !options.some((o) => o.value === chosen.value)) options.unshift(chosen);
  const field = (k: keyof AddressValues) => ({
    value: value[k],
    error: errors[`endereco.${k}`],
    onChange: (e: { currentTarget: { value: string } }) => onChange({ ...value, [k]: e.currentTarget.value }),
  });
  return (
    <Grid>
      <Grid.Col span={{ base: 12, sm: 8 }}>
        <TextInput label={t.issuers.logradouro} required maxLength={60} autoComplete="address-line1" {...field('logradouro')} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 4 }}>
        <TextInput label={t.issuers.numero} required maxLength={60} {...field('numero')} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <TextInput label={t.issuers.complemento} maxLength={60} autoComplete="address-line2" {...field('complemento')} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <TextInput label={t.issuers.bairro} required maxLength={60} {...field('bairro')} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <Select
          label={t.issuers.municipio}
          description={uf ? t.issuers.municipioHint : t.issuers.chooseUfFirst}
          required
          searchable
          disabled={!uf}
          data={options}
          value={value.codigo_municipio || null}
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options: all }) => all}
          nothingFoundMessage={t.issuers.municipioNone}
          error={errors['endereco.codigo_municipio']}
          onChange={(code, option) => {
            setChosen(code ? { value: code, label: option?.label ?? code } : null);
            onChange({ ...value, codigo_municipio: code ?? '' });
          }}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 6, sm: 3 }}>
        <TextInput label={t.issuers.cep} required maxLength={9} inputMode="numeric" autoComplete="postal-code" {...field('cep')} />
      </Grid.Col>
      <Grid.Col span={{ base: 6, sm: 3 }}>
        <TextInput label={t.issuers.telefone} maxLength={20} inputMode="tel" autoComplete="tel" {...field('telefone')} />
      </Grid.Col>
    </Grid>
  );
}
