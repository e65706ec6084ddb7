import { Button, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { t } from '../../i18n/index.js';
import { useSessionQuery } from '../../session.js';
import { AuthFrame } from './auth-frame.js';
import { safeNext } from './sign-in.js';
import { useAction } from '../../components/use-action.js';

/** The e-mail link lands here with ?token=; without one, it asks to open the link (and can resend it). */
export default function VerifyEmail() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const client = useQueryClient();
  const session = useSessionQuery();
  const { busy, error, run } = useAction();
  const [done, setDone] = useState<'verified' | 'resent' | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true; // a token works once: StrictMode's second effect must not spend it again
    void run(async () => {
      await orThrow(api.POST('/v1/auth/verify-email', { body: { token } }));
      setDone('verified');
      await client.invalidateQueries({ queryKey: ['session'] });
    });
  }, [token, run, client]);
  const typed = (useLocation().state as { email?: string } | null)?.email;
  const email = session.data?.me.user.email ?? typed ?? '';
  return (
    <AuthFrame title={t.auth.verifyEmailTitle}>
      <Stack>
        {token && busy && <Text>{t.auth.verifyingEmail}</Text>}
        {done === 'verified' && (
          <>
            <Text role="status">{t.auth.emailVerified}</Text>
            <Button onClick={() => navigate(session.data ? next : '/sign-in')}>{t.continue}</Button>
          </>
        )}
        {!token && <Text>{t.auth.verifyEmailSent(email)}</Text>}
        {done === 'resent' && <Text role="status">{t.auth.resent}</Text>}
        <ApiError error={error} />
        {!token && session.data && (
          <Button variant="light" loading={busy} onClick={() => void run(async () => (await orThrow(api.POST('/v1/auth/verify-email/resend')), setDone('resent')))}>
            {t.auth.resend}
          </Button>
        )}
      </Stack>
    </AuthFrame>
  );
}
