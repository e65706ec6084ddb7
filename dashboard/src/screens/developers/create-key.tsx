import { Button, Checkbox, Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { api, idempotencyKey, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { useStepUp } from '../../components/step-up.js';
import { t } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { useAction } from '../../components/use-action.js';
import { SCOPES, type Scope } from './contract.js';

/** Whether the member's role covers a scope: `x:write` covers `x:read`, `*` covers all (as the API judges). */
function covers(can: (s: string) => boolean, scope: Scope): boolean {
  if (scope === '*') return can('*');
  return can(scope) || (scope.endsWith(':read') && can(scope.replace(/:read$/, ':write')));
}

/** Name and scopes of a new application; the answer (with its key, shown once) goes to `onCreated`. */
export function CreateKey({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (key: string) => void }) {
  const session = useSession();
  const stepUp = useStepUp();
  const offered = SCOPES.filter((s) => covers(session.can, s));
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const { busy, error, run } = useAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // One key per submission: the step-up retry repeats this very request, never a second key.
    const key = idempotencyKey();
    void run(async () => {
      const created = await stepUp(() => orThrow(api.POST('/v1/applications', { body: { name, scopes }, idempotencyKey: key })));
      setName('');
      setScopes([]);
      onCreated(created.key);
    });
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t.developers.keys.newKey} size="lg">
      <form onSubmit={submit}>
        <Stack>
          <TextInput label={t.developers.keys.name} placeholder={t.developers.keys.namePlaceholder} required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
          <Checkbox.Group label={t.developers.keys.scopes} description={t.developers.keys.scopesHint} value={scopes} onChange={(v) => setScopes(SCOPES.filter((s) => v.includes(s)))} withAsterisk>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
              {offered.map((s) => (
                <Checkbox key={s} value={s} label={s === '*' ? t.developers.keys.allScopes : s} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <ApiError error={error} />
          <Button type="submit" loading={busy}>
            {t.developers.keys.createKey}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
