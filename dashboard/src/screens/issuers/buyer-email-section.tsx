import { Alert, Button, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { Loaded } from '../../components/page.js';
import { t } from '../../i18n/index.js';
import type { Issuer } from './model.js';
import { Facts, Section } from './section.js';
import { useKeyedForm } from './use-form.js';
import { useIssuerAction } from './use-issuer-action.js';

type Settings = { enabled: boolean; sender_name: string | null; accountant_email: string | null };

/** The issuer's buyer e-mail (PUT /v1/issuers/{id}/buyer-email): on/off, the sender's name, the accountant in Bcc. */
export function BuyerEmailSection({ issuer, canWrite }: { issuer: Issuer; canWrite: boolean }) {
  const query = useQuery({
    queryKey: ['issuers', 'buyer-email', issuer.id],
    queryFn: () => orThrow(api.GET('/v1/issuers/{id}/buyer-email', { params: { path: { id: issuer.id } } })),
  });
  return (
    <Section title={t.buyerEmail.title} testId="buyer-email">
      <Text size="sm">{t.buyerEmail.intro}</Text>
      <Loaded query={query}>{(settings) => (canWrite ? <BuyerEmailForm issuer={issuer} settings={settings} /> : <BuyerEmailFacts settings={settings} />)}</Loaded>
    </Section>
  );
}

function BuyerEmailFacts({ settings }: { settings: Settings }) {
  return (
    <Facts
      items={[
        [t.buyerEmail.enabled, settings.enabled ? t.buyerEmail.on : t.buyerEmail.off],
        [t.buyerEmail.senderName, settings.sender_name ?? '—'],
        [t.buyerEmail.accountant, settings.accountant_email ?? '—'],
      ]}
    />
  );
}

function BuyerEmailForm({ issuer, settings }: { issuer: Issuer; settings: Settings }) {
  const form = useKeyedForm({ enabled: settings.enabled, sender_name: settings.sender_name ?? '', accountant_email: settings.accountant_email ?? '' });
  const { busy, error, errors, done: saved, submit } = useIssuerAction();
  const save = submit(async () => {
    const v = form.values;
    const body = { enabled: v.enabled, sender_name: v.sender_name.trim() || null, accountant_email: v.accountant_email.trim() || null };
    await orThrow(api.PUT('/v1/issuers/{id}/buyer-email', { params: { path: { id: issuer.id } }, body, idempotencyKey: form.idempotencyKey() }));
  });
  return (
    <form onSubmit={save} noValidate>
      <Stack gap="sm">
        {saved && (
          <Alert color="brand" role="status">
            {t.buyerEmail.saved}
          </Alert>
        )}
        <Switch label={t.buyerEmail.enabled} checked={form.values.enabled} onChange={(e) => form.set('enabled', e.currentTarget.checked)} />
        <TextInput label={t.buyerEmail.senderName} description={t.buyerEmail.senderNameHint} maxLength={60} {...form.text('sender_name')} error={errors.sender_name} />
        <TextInput label={t.buyerEmail.accountant} description={t.buyerEmail.accountantHint} type="email" maxLength={254} {...form.text('accountant_email')} error={errors.accountant_email} />
        <ApiError error={error} />
        <Button type="submit" loading={busy} style={{ alignSelf: 'start' }}>
          {t.buyerEmail.save}
        </Button>
      </Stack>
    </form>
  );
}
