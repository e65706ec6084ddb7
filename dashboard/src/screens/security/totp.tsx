import { Alert, Button, Code, Group, Image, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { useStepUp } from '../../components/step-up.js';
import { t } from '../../i18n/index.js';
import { useSession } from '../../session.js';

/** The ten recovery codes, in this component's memory only: leaving the page forgets them. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Alert color="yellow" title={t.security.recoveryTitle} data-testid="recovery-codes">
      <Text size="sm">{t.security.recoveryText}</Text>
      <List size="sm" mt="xs" ff="monospace">
        {codes.map((c) => (
          <List.Item key={c}>{c}</List.Item>
        ))}
      </List>
      <Button mt="sm" onClick={onDone}>
        {t.security.recoveryDone}
      </Button>
    </Alert>
  );
}

function EnableTotp({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const session = useSession();
  // Turning TOTP on needs a recent proof and renews none.
  const stepUp = useStepUp();
  const [code, setCode] = useState('');
  const setup = useMutation({ mutationFn: () => stepUp(() => orThrow(api.POST('/v1/auth/2fa/setup'))) });
  const verify = useMutation({
    mutationFn: () => stepUp(() => orThrow(api.POST('/v1/auth/2fa/verify', { body: { code } }))),
    onSuccess: async (r) => {
      setup.reset();
      onEnabled(r.recovery_codes);
      await session.reload();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    verify.mutate();
  };
  if (!setup.data)
    return (
      <Stack align="flex-start">
        <Text size="sm">{t.security.totpOff}</Text>
        <Button loading={setup.isPending} onClick={() => setup.mutate()}>
          {t.security.enableTotp}
        </Button>
        <ApiError error={setup.error} />
      </Stack>
    );
  return (
    <form onSubmit={submit}>
      <Stack align="flex-start">
        <Text size="sm">{t.security.scan}</Text>
        <Image src={setup.data.qr_code} alt={t.security.qrAlt} w={200} h={200} />
        <Text size="sm">
          {t.security.secret}: <Code data-testid="totp-secret">{setup.data.secret}</Code>
        </Text>
        <TextInput label={t.security.code} inputMode="numeric" autoComplete="one-time-code" maxLength={6} required value={code} onChange={(e) => setCode(e.currentTarget.value)} />
        <Button type="submit" loading={verify.isPending}>
          {t.security.confirmTotp}
        </Button>
        <ApiError error={verify.error} />
      </Stack>
    </form>
  );
}

function DisableTotp() {
  const session = useSession();
  const stepUp = useStepUp();
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState('');
  const disable = useMutation({
    mutationFn: () => stepUp(() => orThrow(api.POST('/v1/auth/2fa/disable', { body: recovery ? { recovery_code: recovery } : { code } }))),
    onSuccess: () => session.reload(),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    disable.mutate();
  };
  return (
    <form onSubmit={submit}>
      <Stack align="flex-start">
        <Text size="sm">{t.security.totpOn}</Text>
        <Group align="flex-end" wrap="wrap">
          <TextInput label={t.security.code} inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => setCode(e.currentTarget.value)} />
          <TextInput label={t.security.recoveryCode} value={recovery} onChange={(e) => setRecovery(e.currentTarget.value)} />
        </Group>
        <Button type="submit" color="red" variant="light" loading={disable.isPending}>
          {t.security.disableTotp}
        </Button>
        <ApiError error={disable.error} />
      </Stack>
    </form>
  );
}

export function Totp() {
  const session = useSession();
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <>
      <Title order={2} size="h3">
        {t.security.totp}
      </Title>
      {codes ? <RecoveryCodes codes={codes} onDone={() => setCodes(null)} /> : session.me.user.totp_enabled ? <DisableTotp /> : <EnableTotp onEnabled={setCodes} />}
    </>
  );
}
