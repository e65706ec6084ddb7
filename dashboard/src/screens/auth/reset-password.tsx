import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
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

/** The reset link lands here with ?token=. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => (await orThrow(api.POST('/v1/auth/password/reset', { body: { token: params.get('token') ?? '', password } })), setDone(true)));
  };
  return (
    <AuthFrame title={t.auth.resetTitle}>
      {done ? (
        <Text role="status">
          {t.auth.resetDone}{' '}
          <Anchor component={Link} to="/sign-in">
            {t.auth.signIn}
          </Anchor>
        </Text>
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
