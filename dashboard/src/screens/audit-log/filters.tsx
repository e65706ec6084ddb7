import { Button, Group, SimpleGrid, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { t } from '../../i18n/index.js';

/** What GET /v1/audit-log filters by; times as ISO instants. */
export interface AuditFilters {
  actor?: string;
  action?: string;
  target?: string;
  from?: string;
  to?: string;
}

type Field = 'actor' | 'action' | 'target' | 'from' | 'to';
const EMPTY: Record<Field, string> = { actor: '', action: '', target: '', from: '', to: '' };
// <input type="datetime-local"> speaks the browser's local time without a zone; the API wants an instant.
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);

export function AuditFilterForm({ onApply }: { onApply: (f: AuditFilters) => void }) {
  const [draft, setDraft] = useState(EMPTY);
  const set = (k: Field) => (e: React.ChangeEvent<HTMLInputElement>) => setDraft({ ...draft, [k]: e.currentTarget.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({
      actor: draft.actor.trim() || undefined,
      action: draft.action.trim() || undefined,
      target: draft.target.trim() || undefined,
      from: instant(draft.from),
      to: instant(draft.to),
    });
  };
  const clear = () => {
    setDraft(EMPTY);
    onApply({});
  };
  return (
    <form onSubmit={submit} aria-label={t.auditLog.filters}>
      <SimpleGrid cols={{ base: 1, sm: 3, lg: 5 }}>
        <TextInput label={t.auditLog.actor} description={t.auditLog.actorHint} value={draft.actor} onChange={set('actor')} />
        <TextInput label={t.auditLog.action} description={t.auditLog.actionHint} value={draft.action} onChange={set('action')} />
        <TextInput label={t.auditLog.target} value={draft.target} onChange={set('target')} />
        <TextInput label={t.auditLog.from} type="datetime-local" value={draft.from} onChange={set('from')} />
        <TextInput label={t.auditLog.to} type="datetime-local" value={draft.to} onChange={set('to')} />
      </SimpleGrid>
      <Group mt="sm">
        <Button type="submit">{t.auditLog.apply}</Button>
        <Button variant="default" onClick={clear}>
          {t.auditLog.clear}
        </Button>
      </Group>
    </form>
  );
}
