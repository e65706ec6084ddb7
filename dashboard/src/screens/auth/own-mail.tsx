import { Anchor, Code, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';

const VERIFY = /verify-email\?token=(evf_[A-Za-z0-9]{43})/;

/** The dashboard path that confirms the address with the token of a verification link. */
export const verifyPath = (token: string) => `/verify-email?token=${encodeURIComponent(token)}`;

/**
 * The signed-in person's own captured mail (GET /v1/sandbox/mail), before their address is confirmed
 * In a sandbox without SMTP nothing is sent, and the verification link is here. The
 * API shows an unconfirmed session only the mail to its own address.
 */
export function OwnMail() {
  const mail = useQuery({
    queryKey: ['auth', 'own-mail'],
    queryFn: () => orThrow(api.GET('/v1/sandbox/mail', { params: { query: { limit: 5 } } })),
  });
  return (
    <Stack gap="xs" data-testid="own-mail">
      <Title order={2} size="h5">
        {t.auth.ownMailTitle}
      </Title>
      <ApiError error={mail.error} onRetry={() => void mail.refetch()} />
      {mail.data?.data.length === 0 && <Text size="sm">{t.auth.ownMailEmpty}</Text>}
      {mail.data?.data.map((m) => {
        const token = VERIFY.exec(m.text)?.[1];
        return (
          <Stack key={m.id} gap={4}>
            <Text size="sm" fw={500}>
              {m.subject} · {formatDateTime(m.created_at)}
            </Text>
            {token && !m.redacted ? (
              <Anchor component={Link} to={verifyPath(token)} size="sm">
                {t.auth.openVerifyLink}
              </Anchor>
            ) : (
              <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                {m.text}
              </Code>
            )}
          </Stack>
        );
      })}
    </Stack>
  );
}
