import { Alert, Button, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { t } from '../../i18n/index.js';
import { useSessionQuery } from '../../session.js';
import { AuthFrame } from './auth-frame.js';
import { OwnMail, verifyPath } from './own-mail.js';
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
      // The session is read again before Continuar shows: clicked on the stale (unconfirmed) session, the app
      // would send the person back here, without the token, and leave them there.
      await client.invalidateQueries({ queryKey: ['session'] });
      setDone('verified');
    });
  }, [token, run, client]);
  const typed = useLocation().state as { email?: string; sandboxToken?: string } | null;
  const email = session.data?.me.user.email ?? typed?.email ?? '';
  // A sandbox without SMTP answered the link at sign-up: no e-mail will come.
  const sandboxToken = typed?.sandboxToken;
  const unconfirmed = !token && done !== 'verified' && session.data && !session.data.me.user.email_verified;
  return (
    <AuthFrame title={t.auth.verifyEmailTitle}>
      <Stack>
        {token && busy && <Text>{t.auth.verifyingEmail}</Text>}
        {done === 'verified' && (
          <>
            <Text role="status">{t.auth.emailVerified}</Text>
            {/* Signed out: the sign-in page; still loading counts as signed in (the app sends a signed-out person to sign in anyway). */}
            <Button onClick={() => navigate(session.data === null ? '/sign-in' : next)}>{t.continue}</Button>
          </>
        )}
        {!token && !sandboxToken && <Text>{t.auth.verifyEmailSent(email)}</Text>}
        {!token && sandboxToken && (
          <Alert color="brand" title={t.auth.sandboxNoMailTitle} data-testid="sandbox-verification">
            <Stack gap="xs">
              <Text size="sm">{t.auth.sandboxNoMail(email)}</Text>
              <Button onClick={() => navigate(`${verifyPath(sandboxToken)}${next !== '/' ? `&next=${encodeURIComponent(next)}` : ''}`)}>{t.auth.confirmNow}</Button>
            </Stack>
          </Alert>
        )}
        {done === 'resent' && <Text role="status">{t.auth.resent}</Text>}
        <ApiError error={error} />
        {!token && session.data && (
          <Button variant="light" loading={busy} onClick={() => void run(async () => (await orThrow(api.POST('/v1/auth/verify-email/resend')), setDone('resent')))}>
            {t.auth.resend}
          </Button>
        )}
        {unconfirmed && session.data?.account?.environment === 'sandbox' && <OwnMail key={done ?? ''} />}
      </Stack>
    </AuthFrame>
  );
}
