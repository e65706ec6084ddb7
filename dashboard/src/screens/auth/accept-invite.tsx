import { Button, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { Loaded } from '../../components/page.js';
import { t } from '../../i18n/index.js';
import { useSessionQuery } from '../../session.js';
import { AuthFrame } from './auth-frame.js';
import { useAction } from '../../components/use-action.js';

/**
 * The invite link lands here. The gateway accepts an invite for a signed-in user whose confirmed
 * e-mail is the invited one: signed out, the page sends to sign-in (or sign-up) and comes back.
 */
export default function AcceptInvite() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const session = useSessionQuery();
  const { busy, error, run } = useAction();
  const accept = () =>
    run(async () => {
      const accepted = await orThrow(api.POST('/v1/team/invites/accept', { body: { token } }));
      // Act on the team just joined.
      await orThrow(api.POST('/v1/auth/switch-account', { body: { account_id: accepted.account_id } }));
      await client.invalidateQueries({ queryKey: ['session'] });
      navigate('/', { replace: true });
    });
  return (
    <Loaded query={session}>
      {(s) =>
        s === null ? (
          <Navigate to={`/sign-up?next=${encodeURIComponent(location.pathname.replace(/^\/dashboard/, '') + location.search)}`} replace />
        ) : (
          <AuthFrame title={t.auth.acceptInviteTitle}>
            <Stack>
              <Text>{s.me.user.email}</Text>
              <ApiError error={error} />
              <Button loading={busy} onClick={() => void accept()}>
                {t.auth.acceptInvite}
              </Button>
            </Stack>
          </AuthFrame>
        )
      }
    </Loaded>
  );
}
