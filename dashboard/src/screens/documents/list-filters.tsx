import { Button, Group, NativeSelect, Paper, SimpleGrid, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { t } from '../../i18n/index.js';
import { STATUSES, type Family, type ListQuery } from './families.js';

export interface Filters {
  status: string;
  issuer_id: string;
  from: string;
  to: string;
  external_ref: string;
}

export const NO_FILTERS: Filters = { status: '', issuer_id: '', from: '', to: '', external_ref: '' };

// Dates are chosen as days in Brasília time: from the start of `from` to the end of `to`.
const dayStart = (day: string) => `${day}T00:00:00-03:00`;
function nextDayStart(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return dayStart(d.toISOString().slice(0, 10));
}

/** The list endpoint's query for the chosen filters (only those set). */
export function toQuery(f: Filters): ListQuery {
  return {
    ...(f.status ? { status: f.status as ListQuery['status'] } : {}),
    ...(f.issuer_id ? { issuer_id: f.issuer_id } : {}),
    ...(f.external_ref.trim() ? { external_ref: f.external_ref.trim() } : {}),
    ...(f.from ? { 'created_at[gte]': dayStart(f.from) } : {}),
    ...(f.to ? { 'created_at[lt]': nextDayStart(f.to) } : {}),
  };
}

/** Status, issuer, creation days and external reference: what GET /v1/<family> filters by. */
export function ListFilters({ family, issuers, value, onApply }: { family: Family; issuers: { id: string; name: string }[]; value: Filters; onApply: (f: Filters) => void }) {
  const [draft, setDraft] = useState(value);
  const set = (k: keyof Filters) => (e: { currentTarget: { value: string } }) => setDraft({ ...draft, [k]: e.currentTarget.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(draft);
  };
  const statuses = [{ value: '', label: t.documents.anyStatus }, ...STATUSES[family].map((s) => ({ value: s, label: t.status[s] ?? s }))];
  const issuerOptions = [{ value: '', label: t.documents.anyIssuer }, ...issuers.map((i) => ({ value: i.id, label: i.name }))];
  return (
    <Paper withBorder p="sm" component="form" onSubmit={submit} aria-label={t.documents.filters}>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="xs">
        <NativeSelect label={t.documents.status} data={statuses} value={draft.status} onChange={set('status')} />
        <NativeSelect label={t.documents.issuer} data={issuerOptions} value={draft.issuer_id} onChange={set('issuer_id')} />
        <TextInput label={t.documents.from} type="date" value={draft.from} onChange={set('from')} />
        <TextInput label={t.documents.to} type="date" value={draft.to} onChange={set('to')} />
        <TextInput label={t.documents.externalRef} value={draft.external_ref} onChange={set('external_ref')} />
      </SimpleGrid>
      <Group gap="xs" mt="sm">
        <Button type="submit" size="xs">
          {t.documents.apply}
        </Button>
        <Button
          size="xs"
          variant="subtle"
          onClick={() => {
            setDraft(NO_FILTERS);
            onApply(NO_FILTERS);
          }}
        >
          {t.documents.clear}
        </Button>
      </Group>
    </Paper>
  );
}
