import { Button, Grid, NativeSelect, NumberInput, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, idempotencyKey, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { useAction } from '../../components/use-action.js';
import { t } from '../../i18n/index.js';

/**
 * Opens a new NF-e or NFC-e series (POST /v1/issuers/{id}/series): a shop with one series per till, or
 * moving from another system, starts it at the number where it stopped. The gateway's rules decide
 * (a series that exists is 409 series_exists, said in Portuguese under the form).
 */
export function NewSeriesForm({ issuerId }: { issuerId: string }) {
  const client = useQueryClient();
  const { busy, error, run } = useAction();
  const [model, setModel] = useState<'65' | '55'>('65');
  const [series, setSeries] = useState<number | string>('');
  const [next, setNext] = useState<number | string>('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const key = idempotencyKey();
    void run(async () => {
      const body = { model: Number(model) as 55 | 65, series: Number(series), ...(next === '' ? {} : { next_number: Number(next) }) };
      await orThrow(api.POST('/v1/issuers/{id}/series', { params: { path: { id: issuerId } }, body, idempotencyKey: key }));
      setSeries('');
      setNext('');
      await client.invalidateQueries({ queryKey: ['issuer-series', issuerId] });
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t.issuers.newSeriesTitle}>
      <Stack gap="sm">
        <Text size="sm" fw={700}>
          {t.issuers.newSeriesTitle}
        </Text>
        <Grid>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <NativeSelect label={t.issuers.numberingModel} value={model} data={[{ value: '65', label: t.nav.nfce }, { value: '55', label: t.nav.nfe }]} onChange={(e) => setModel(e.currentTarget.value as '65' | '55')} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 4 }}>
            <NumberInput label={t.issuers.newSeriesNumber} min={1} max={999} allowDecimal={false} value={series} onChange={setSeries} required />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 4 }}>
            <NumberInput label={t.issuers.newSeriesFirst} description={t.issuers.newSeriesFirstHint} min={1} allowDecimal={false} value={next} onChange={setNext} />
          </Grid.Col>
        </Grid>
        <ApiError error={error} />
        <Button type="submit" loading={busy} disabled={series === ''} w="fit-content">
          {t.issuers.newSeriesOpen}
        </Button>
      </Stack>
    </form>
  );
}
