import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { t } from '../../i18n/index.js';
import { AuthFrame } from './auth-frame.js';
import { safeNext } from './sign-in.js';
import { useAction } from '../../components/use-action.js';

export default function SignUp() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const client = useQueryClient();
  const [form, setForm] = useState({ email: '', password: '', name: '', account_name: '' });
  const { busy, error, run } = useAction();
  const field = (k: keyof typeof form) => ({ value: form[k], onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, [k]: e.currentTarget.value }) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const body = { email: form.email, password: form.password, ...(form.name ? { name: form.name } : {}), ...(form.account_name ? { account_name: form.account_name } : {}) };
      const answer = await orThrow(api.POST('/v1/auth/signup', { body }));
      await client.invalidateQueries({ queryKey: ['session'] });
      // An address that already has an account gets the same answer, and its session
      // opens nothing: the next page names the address from here, not from the session. A sandbox
      // without SMTP sends no e-mail and answers the link instead: the next page shows it.
      const sandboxToken = answer.sandbox_verification?.token;
      navigate(`/verify-email${next !== '/' ? `?next=${encodeURIComponent(next)}` : ''}`, { replace: true, state: { email: form.email, sandboxToken } });
    });
  };
  return (
    <AuthFrame title={t.auth.signupTitle}>
      <form onSubmit={submit}>
        <Stack>
          <TextInput label={t.auth.name} autoComplete="name" {...field('name')} />
          <TextInput label={t.auth.accountName} autoComplete="organization" {...field('account_name')} />
          <TextInput label={t.auth.email} type="email" autoComplete="email" required {...field('email')} />
          <PasswordInput label={t.auth.password} description={t.auth.passwordHint} autoComplete="new-password" required {...field('password')} />
          <ApiError error={error} />
          <Button type="submit" loading={busy}>
            {t.auth.createAccount}
          </Button>
        </Stack>
      </form>
      <Text size="sm">
        {t.auth.haveAccount}{' '}
        <Anchor component={Link} to={`/sign-in${next !== '/' ? `?next=${encodeURIComponent(next)}` : ''}`}>
          {t.auth.signIn}
        </Anchor>
      </Text>
    </AuthFrame>
  );
}
