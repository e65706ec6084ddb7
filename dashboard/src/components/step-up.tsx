import { Button, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { createContext, useContext, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { api, FiscalGatewayError, orThrow } from '../api/client.js';
import { t } from '../i18n/index.js';
import { useSession } from '../session.js';
import { ApiError } from './api-error.js';

type Ask = () => Promise<boolean>;
const StepUpContext = createContext<Ask | null>(null);

/**
 * Sensitive routes answer 403 `reauthentication_required` when the session's last proof is older
 * than 10 minutes (docs/guides/api.md#contract-people). This asks the member for their password (and TOTP code when enabled),
 * proves it at POST /v1/auth/reauthenticate, and lets the action run again.
 */
export function StepUpProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const settle = useRef<(ok: boolean) => void>(() => undefined);
  const ask: Ask = () =>
    new Promise<boolean>((resolve) => {
      settle.current = resolve;
      setPassword('');
      setCode('');
      setError(null);
      setOpen(true);
    });
  const finish = (ok: boolean) => {
    setOpen(false);
    settle.current(ok);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await orThrow(api.POST('/v1/auth/reauthenticate', { body: { password, ...(session.me.user.totp_enabled ? { code } : {}) } }));
      finish(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <StepUpContext.Provider value={ask}>
      {children}
      {/* Above the dialog whose action asked for it (Mantine's modals sit at z-index 200). */}
      <Modal opened={open} onClose={() => finish(false)} title={t.auth.reauthTitle} zIndex={300}>
        <form onSubmit={(e) => void submit(e)}>
          <Stack>
            <Text size="sm">{t.auth.reauthText}</Text>
            <PasswordInput label={t.auth.password} autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} data-autofocus />
            {session.me.user.totp_enabled && (
              <TextInput label={t.auth.totpCode} inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => setCode(e.currentTarget.value)} />
            )}
            <ApiError error={error} />
            <Button type="submit" loading={busy}>
              {t.confirm}
            </Button>
          </Stack>
        </form>
      </Modal>
    </StepUpContext.Provider>
  );
}

/**
 * Wraps an action that may need a recent proof: it runs; on 403 `reauthentication_required` the
 * member confirms who they are and it runs once more (with the same Idempotency-Key when the
 * action closes over one, so the gateway never does it twice).
 */
export function useStepUp() {
  const ask = useContext(StepUpContext);
  if (!ask) throw new Error('useStepUp outside StepUpProvider');
  return async <T,>(action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (err) {
      if (!(err instanceof FiscalGatewayError && err.code === 'reauthentication_required')) throw err;
      if (!(await ask())) throw err;
      return action();
    }
  };
}
