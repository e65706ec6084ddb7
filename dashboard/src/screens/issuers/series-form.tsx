import { Alert, Button, Grid, Group, NativeSelect, NumberInput, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, idempotencyKey, orThrow, type paths } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { useAction } from '../../components/use-action.js';
import { t } from '../../i18n/index.js';
import { formatDate } from '../../i18n/format.js';
import { fieldErrors, fill } from './model.js';
import { useKeyedForm } from './use-form.js';

type SeriesRow = paths['/v1/issuers/{id}/series']['get']['responses'][200]['content']['application/json']['data'][number];
type SeriesChange = paths['/v1/issuers/{id}/series/{model}/{series}']['patch']['responses'][200]['content']['application/json'];

const seriesName = (r: Pick<SeriesRow, 'model' | 'series'>) => `${r.model === 55 ? t.nav.nfe : t.nav.nfce} ${fill(t.issuers.seriesNumber, { serie: r.series })}`;
const ranges = (rs: { from: number; to: number }[]) => rs.map((r) => (r.from === r.to ? String(r.from) : `${r.from}–${r.to}`)).join(', ');

/**
 * Moves a series (PATCH /v1/issuers/{id}/series/{model}/{series}): its next number (a shop moving
 * from another system continues where it stopped) or retired / active again. The rules are the
 * gateway's (a number used or voided is never issued again: 409 on next_number); the numbers a move
 * skips are listed with the date to void them by.
 */
export function SeriesForm({ issuerId, rows }: { issuerId: string; rows: SeriesRow[] }) {
  const client = useQueryClient();
  const { busy, error, run } = useAction();
  const form = useKeyedForm({ which: rows[0] ? `${rows[0].model}-${rows[0].series}` : '', next: '' as number | string });
  const [change, setChange] = useState<SeriesChange | null>(null);
  const chosen = rows.find((r) => `${r.model}-${r.series}` === form.values.which);
  const errors = fieldErrors(error);

  const patch = (body: { next_number?: number; retired?: boolean }) => (e?: FormEvent) => {
    e?.preventDefault();
    if (!chosen) return;
    setChange(null);
    void run(async () => {
      const path = { id: issuerId, model: String(chosen.model) as '55' | '65', series: String(chosen.series) };
      // The form's key covers its values (the next number); retiring or reopening is a request of its
      // own, with a key of its own (one key for two bodies would be idempotency_conflict).
      const key = body.next_number !== undefined ? form.idempotencyKey() : idempotencyKey();
      setChange(await orThrow(api.PATCH('/v1/issuers/{id}/series/{model}/{series}', { params: { path }, body, idempotencyKey: key })));
      await client.invalidateQueries({ queryKey: ['issuer-series', issuerId] });
    });
  };
  if (!chosen) return null;
  return (
    <form onSubmit={patch({ next_number: Number(form.values.next) })} noValidate aria-label={t.issuers.seriesFormTitle}>
      <Stack gap="sm">
        <Text size="sm" fw={700}>
          {t.issuers.seriesFormTitle}
        </Text>
        <Grid>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <NativeSelect
              label={t.issuers.seriesChoose}
              value={form.values.which}
              data={rows.map((r) => ({ value: `${r.model}-${r.series}`, label: r.status === 'retired' ? fill(t.issuers.numberingRetired, { serie: seriesName(r) }) : seriesName(r) }))}
              onChange={(e) => form.set('which', e.currentTarget.value)}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <NumberInput
              label={t.issuers.seriesNext}
              description={fill(t.issuers.seriesNextHint, { next: chosen.next_number })}
              min={1}
              max={999_999_999}
              allowDecimal={false}
              value={form.values.next}
              onChange={(x) => form.set('next', x)}
              error={errors.next_number}
            />
          </Grid.Col>
        </Grid>
        <ApiError error={error} />
        <Group gap="sm">
          <Button type="submit" loading={busy} disabled={form.values.next === ''}>
            {t.issuers.seriesSaveNext}
          </Button>
          {chosen.status === 'retired' ? (
            <Button type="button" variant="default" loading={busy} onClick={patch({ retired: false })}>
              {t.issuers.seriesReopen}
            </Button>
          ) : (
            <Button type="button" variant="default" loading={busy} onClick={patch({ retired: true })}>
              {t.issuers.seriesRetire}
            </Button>
          )}
        </Group>
        {change && (
          <Alert color={change.gaps.length ? 'yellow' : 'green'} variant="light" role="status" data-testid="series-change">
            {fill(change.status === 'retired' ? t.issuers.seriesRetired : t.issuers.seriesSaved, { serie: seriesName(change), next: change.next_number })}
            {change.gaps.length > 0 && ` ${fill(t.issuers.seriesGaps, { ranges: ranges(change.gaps), date: formatDate(change.void_by) })}`}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
