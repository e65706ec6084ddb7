import { Alert, Button, NativeSelect, Paper, Stack, Textarea, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { t } from '../../i18n/index.js';
import type { AnyRecord, Family } from './families.js';
import { useNoteAction } from './use-keyed-action.js';

/** The authority's rule for xJust/xMotivo (15-255 characters), said before anything is sent. */
export function reasonProblem(reason: string): string | null {
  const n = reason.trim().length;
  if (n < 15) return t.documents.reasonTooShort(n);
  if (n > 255) return t.documents.reasonTooLong(n);
  return null;
}

function cancelNote(family: Family, id: string, reason: string, reasonCode: 1 | 2 | 9, idempotencyKey: string): Promise<AnyRecord> {
  const init = { params: { path: { id } }, idempotencyKey };
  if (family === 'nfce') return orThrow(api.POST('/v1/nfce/{id}/cancel', { ...init, body: { reason } }));
  if (family === 'nfe') return orThrow(api.POST('/v1/nfe/{id}/cancel', { ...init, body: { reason } }));
  return orThrow(api.POST('/v1/nfse/{id}/cancel', { ...init, body: { reason, reason_code: reasonCode } }));
}

/** Cancel an authorized note: the reason checked here, then the API's answer (canceled, or pending at the authority). */
export function CancelForm({ family, note }: { family: Family; note: AnyRecord }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonCode, setReasonCode] = useState<1 | 2 | 9>(1);
  const [problem, setProblem] = useState<string | null>(null);
  const action = useNoteAction(family, note.id);
  if (!open)
    return (
      <Button color="red" variant="outline" onClick={() => setOpen(true)}>
        {t.documents.cancelAction}
      </Button>
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = reasonProblem(reason);
    setProblem(p);
    if (p) return;
    void action.run((key) => cancelNote(family, note.id, reason.trim(), reasonCode, key));
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate aria-label={t.documents.cancelTitle}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t.documents.cancelTitle}
        </Title>
        {family === 'nfse' && (
          <NativeSelect
            label={t.documents.nfseReasonCode}
            data={[1, 2, 9].map((c) => ({ value: String(c), label: t.documents.nfseReasonCodes[c]! }))}
            value={String(reasonCode)}
            onChange={(e) => {
              setReasonCode(Number(e.currentTarget.value) as 1 | 2 | 9);
              action.renewKey();
            }}
          />
        )}
        <Textarea
          label={t.documents.cancelReason}
          description={t.documents.cancelReasonHint}
          autosize
          minRows={2}
          maxLength={400}
          value={reason}
          error={problem}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setReason(value);
            // Checked as it is typed (docs/guides/people-and-teams.md "Documents"): the count shows until the reason is long enough.
            setProblem(value.trim() === '' ? null : reasonProblem(value));
            action.renewKey();
          }}
        />
        <ApiError error={action.error} />
        {note.cancellation_pending && <Alert color="blue">{t.documents.cancelPending}</Alert>}
        <Button type="submit" color="red" loading={action.busy} style={{ alignSelf: 'flex-start' }}>
          {t.documents.cancelSubmit}
        </Button>
      </Stack>
    </Paper>
  );
}
