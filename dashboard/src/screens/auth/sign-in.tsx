import { Anchor, Button, Divider, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, orThrow } from '../../api/client.js';
import { passkeySignIn } from '../../api/passkeys.js';
import { ApiError } from '../../components/api-error.js';
import { t } from '../../i18n/index.js';
import { AuthFrame } from './auth-frame.js';
import { SsoButtons } from './sso-buttons.js';
import { useAction } from '../../components/use-action.js';

/** Only a path of this dashboard may follow a sign-in (no open redirect). */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export default function SignIn() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<{ token: string; methods: string[] } | null>(null);
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState('');
  const { busy, error, run } = useAction();

  const signedIn = async () => {
    await client.invalidateQueries({ queryKey: ['session'] });
    navigate(next, { replace: true });
  };
  const submitPassword = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const answer = await orThrow(api.POST('/v1/auth/login', { body: { email, password } }));
      if (answer.object === 'login_challenge') setChallenge({ token: answer.challenge_token, methods: answer.methods });
      else await signedIn();
    });
  };
  const submitSecondFactor = (e: FormEvent) => {
    e.preventDefault();
    if (!challenge) return;
    void run(async () => {
      const body = recovery ? { challenge_token: challenge.token, recovery_code: recovery.trim() } : { challenge_token: challenge.token, code };
      await orThrow(api.POST('/v1/auth/login/second-factor', { body }));
      await signedIn();
    });
  };

  if (challenge)
    return (
      <AuthFrame title={t.auth.totpTitle}>
        <form onSubmit={submitSecondFactor}>
          <Stack>
            {challenge.methods.includes('totp') && (
              <TextInput label={t.auth.totpCode} inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => setCode(e.currentTarget.value)} data-autofocus />
            )}
            {challenge.methods.includes('recovery_code') && <TextInput label={t.auth.recoveryCode} value={recovery} onChange={(e) => setRecovery(e.currentTarget.value)} />}
            <ApiError error={error} />
            <Button type="submit" loading={busy}>
              {t.auth.verify}
            </Button>
            {challenge.methods.includes('passkey') && (
              <Button variant="light" onClick={() => void run(async () => (await passkeySignIn(challenge.token), await signedIn()))}>
                {t.auth.signInWithPasskey}
              </Button>
            )}
          </Stack>
        </form>
      </AuthFrame>
    );

  return (
    <AuthFrame title={t.auth.signInTitle}>
      <form onSubmit={submitPassword}>
        <Stack>
          <TextInput label={t.auth.email} type="email" autoComplete="username webauthn" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          <PasswordInput label={t.auth.password} autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          <ApiError error={error} />
          <Button type="submit" loading={busy}>
            {t.auth.signIn}
          </Button>
        </Stack>
      </form>
      <Anchor component={Link} to="/forgot-password" size="sm">
        {t.auth.forgot}
      </Anchor>
      <Divider />
      <Button variant="light" onClick={() => void run(async () => (await passkeySignIn(), await signedIn()))}>
        {t.auth.signInWithPasskey}
      </Button>
      <SsoButtons next={next} />
      <Text size="sm">
        {t.auth.noAccount}{' '}
        <Anchor component={Link} to={`/sign-up${next !== '/' ? `?next=${encodeURIComponent(next)}` : ''}`}>
          {t.auth.createAccount}
        </Anchor>
      </Text>
    </AuthFrame>
  );
}
