import { Badge, Button, Checkbox, Group, List, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { t } from '../../i18n/index.js';
import { formatDateTime } from '../../i18n/format.js';
import type { NfeRecord } from './families.js';
import { useNoteAction } from './use-keyed-action.js';

/** xCorrecao's rule (15-1000 characters), said before anything is sent. */
function correctionProblem(text: string): string | null {
  const n = text.trim().length;
  if (n < 15) return t.documents.cceTooShort(n);
  if (n > 1000) return t.documents.cceTooLong(n);
  return null;
}

/**
 * The NF-e's correction letters (CC-e, event 110110): the text in force, each letter sent, and, for
 * a role that writes NF-e, a new letter. What a CC-e may not change is the API's to refuse (422).
 */
export function CcePanel({ note, canWrite }: { note: NfeRecord; canWrite: boolean }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [replace, setReplace] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const action = useNoteAction('nfe', note.id);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const p = correctionProblem(text);
    setProblem(p);
    if (p) return;
    const sent = await action.run((idempotencyKey) =>
      orThrow(api.POST('/v1/nfe/{id}/cce', { params: { path: { id: note.id } }, idempotencyKey, body: { correction: text.trim(), ...(replace ? { mode: 'replace' as const } : {}) } })),
    );
    if (sent) {
      setText('');
      setOpen(false);
    }
  };
  const changed = () => {
    setProblem(null);
    action.renewKey();
  };
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t.documents.cceTitle}
        </Title>
        {note.correction && (
          <Text size="sm">
            <strong>{t.documents.cceInForce}:</strong> {note.correction.text}
          </Text>
        )}
        {note.corrections.length > 0 && (
          <List size="sm" aria-label={t.documents.cceLetters}>
            {note.corrections.map((l) => (
              <List.Item key={l.sequence}>
                <Group gap="xs" wrap="wrap">
                  <Badge variant="light" color={l.status === 'rejected' ? 'red' : l.status === 'pending' ? 'blue' : 'green'}>
                    {t.documents.cceLetter(l.sequence, t.documents.cceStatus[l.status] ?? l.status)}
                  </Badge>
                  <Text size="sm">{formatDateTime(l.requested_at)}</Text>
                </Group>
                <Text size="sm">{l.text}</Text>
                {l.rejection && (
                  <Text size="sm" c="red.9">
                    {l.rejection.code}: {l.rejection.message}
                  </Text>
                )}
              </List.Item>
            ))}
          </List>
        )}
        {canWrite && note.status === 'authorized' && !open && (
          <Button variant="outline" onClick={() => setOpen(true)} style={{ alignSelf: 'flex-start' }}>
            {t.documents.cceAction}
          </Button>
        )}
        {open && (
          <form onSubmit={(e) => void submit(e)} noValidate>
            <Stack gap="sm">
              <Textarea
                label={t.documents.cceText}
                description={t.documents.cceHint}
                autosize
                minRows={3}
                value={text}
                error={problem}
                onChange={(e) => {
                  setText(e.currentTarget.value);
                  changed();
                }}
              />
              <Checkbox
                label={t.documents.cceReplace}
                checked={replace}
                onChange={(e) => {
                  setReplace(e.currentTarget.checked);
                  changed();
                }}
              />
              <ApiError error={action.error} />
              <Button type="submit" loading={action.busy} style={{ alignSelf: 'flex-start' }}>
                {t.documents.cceSubmit}
              </Button>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
