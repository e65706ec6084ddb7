import { Anchor, Badge, Button, List, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { AuthFrame } from './auth-frame.js';
import { useAction } from '../../components/use-action.js';

/** Asks for the reset link (the answer never tells whether the address has an account). */
export function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => (await orThrow(api.POST('/v1/auth/password/forgot', { body: { email } })), setSent(true)));
  };
  return (
    <AuthFrame title={t.auth.forgot}>
      {sent ? (
        <Text role="status">{t.auth.forgotSent}</Text>
      ) : (
        <form onSubmit={submit}>
          <Stack>
            <TextInput label={t.auth.email} type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
            <ApiError error={error} />
            <Button type="submit" loading={busy}>
              {t.auth.sendLink}
            </Button>
          </Stack>
        </form>
      )}
    </AuthFrame>
  );
}

type ResetAnswer = Awaited<ReturnType<typeof resetPassword>>;
const resetPassword = (token: string, password: string) => orThrow(api.POST('/v1/auth/password/reset', { body: { token, password } }));

/**
 * What the reset left on the account: every factor with the date it was added, the
 * suspended ones marked, and the way to the security page to confirm or remove them.
 */
function ResetDone({ answer }: { answer: ResetAnswer }) {
  const suspended = answer.factors.some((f) => f.suspended);
  return (
    <Stack role="status" data-testid="reset-done">
      <Text>{t.auth.resetDone}</Text>
      {answer.removed_factors.length > 0 && <Text size="sm">{t.auth.resetRemoved(answer.removed_factors.length)}</Text>}
      {answer.factors.length === 0 ? (
        <Text size="sm">{t.auth.resetNoFactors}</Text>
      ) : (
        <>
          <Text size="sm">{t.auth.resetFactors}</Text>
          <List size="sm">
            {answer.factors.map((f) => (
              <List.Item key={f.id}>
                {t.auth.factorLine(f.type, f.name, formatDateTime(f.created_at))} {f.suspended && <Badge color="orange">{t.auth.suspended}</Badge>}
              </List.Item>
            ))}
          </List>
          {suspended && <Text size="sm">{t.auth.resetSuspended}</Text>}
        </>
      )}
      <Anchor component={Link} to={suspended ? `/sign-in?next=${encodeURIComponent('/security')}` : '/sign-in'}>
        {suspended ? t.auth.reviewFactors : t.auth.signIn}
      </Anchor>
    </Stack>
  );
}

/** The reset link lands here with ?token=. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const [password, setPassword] = useState('');
  const [done, setDone] = useState<ResetAnswer | null>(null);
  const { busy, error, run } = useAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => setDone(await resetPassword(params.get('token') ?? '', password)));
  };
  return (
    <AuthFrame title={t.auth.resetTitle}>
      {done ? (
        <ResetDone answer={done} />
      ) : (
        <form onSubmit={submit}>
          <Stack>
            <PasswordInput label={t.auth.password} description={t.auth.passwordHint} autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
            <ApiError error={error} />
            <Button type="submit" loading={busy}>
              {t.save}
            </Button>
          </Stack>
        </form>
      )}
    </AuthFrame>
  );
}
