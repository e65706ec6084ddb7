import { Alert, Button, Input, List, PasswordInput, Stack, Text } from '@mantine/core';
import { useId, useState } from 'react';
import { api, orThrow, type paths } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { useStepUp } from '../../components/step-up.js';
import { t } from '../../i18n/index.js';
import { formatDate, formatDateTime, formatTaxId } from '../../i18n/format.js';
import { CertificateBadge } from './certificate-badge.js';
import type { Issuer } from './model.js';
import { Facts, Section } from './section.js';
import { useKeyedForm } from './use-form.js';
import { useIssuerAction } from './use-issuer-action.js';

type Uploaded = paths['/v1/issuers/{id}/certificate']['post']['responses'][201]['content']['application/json'];

/**
 * The A1 certificate as stored (subject, CNPJ, validity) and its upload: the .pfx and its password
 * go once to POST /v1/issuers/{id}/certificate (a session may be asked to confirm who it is).
 */
export function CertificateSection({ issuer, canWrite }: { issuer: Issuer; canWrite: boolean }) {
  const c = issuer.certificate;
  const [uploaded, setUploaded] = useState<Uploaded | null>(null);
  return (
    <Section title={t.issuers.certificate} actions={<CertificateBadge certificate={c} />} testId="certificate">
      {c.status === 'missing' ? (
        <Text size="sm">{t.issuers.certNone}</Text>
      ) : (
        <Facts
          items={[
            [t.issuers.certSubject, c.subject ?? '—'],
            [t.issuers.certCnpj, formatTaxId(c.cnpj)],
            [t.issuers.certValidFrom, formatDate(c.not_before)],
            [t.issuers.certValidUntil, formatDate(c.not_after)],
            [t.issuers.certSerial, c.serial_number ?? '—'],
            [t.issuers.certStorage, c.storage_mode ?? '—'],
          ]}
        />
      )}
      {uploaded && (
        <Alert color="brand" title={t.issuers.certUploaded} role="status">
          <Text size="sm">
            {t.issuers.certSubject}: {uploaded.subject}
          </Text>
          <Text size="sm">
            {t.issuers.certCnpj}: {formatTaxId(uploaded.cnpj)} · {t.issuers.certValidUntil}: {formatDateTime(uploaded.not_after)}
          </Text>
          <Text size="sm">
            {t.issuers.certIssuer}: {uploaded.issuer}
          </Text>
          {uploaded.warnings.length > 0 && (
            <List size="sm" mt="xs">
              {uploaded.warnings.map((w) => (
                <List.Item key={w}>
                  {t.issuers.certWarnings}: {w}
                </List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
      {canWrite && <UploadForm issuerId={issuer.id} onUploaded={setUploaded} />}
    </Section>
  );
}

function UploadForm({ issuerId, onUploaded }: { issuerId: string; onUploaded: (u: Uploaded) => void }) {
  const stepUp = useStepUp();
  const fileId = useId();
  const form = useKeyedForm({ password: '', file: null as File | null });
  const { busy, error, errors, submit } = useIssuerAction();
  const [missingFile, setMissingFile] = useState(false);
  // A new input element after an upload: a file input cannot be emptied from code.
  const [inputKey, setInputKey] = useState(0);
  const upload = submit(async () => {
    const file = form.values.file;
    setMissingFile(!file);
    if (!file) return;
    const idempotencyKey = form.idempotencyKey();
    const result = await stepUp(() => orThrow(api.uploadCertificate(issuerId, { pfx: file, password: form.values.password, filename: file.name }, { idempotencyKey })));
    onUploaded(result as Uploaded);
    form.reset({ password: '', file: null });
    setInputKey((k) => k + 1);
  });
  return (
    <form onSubmit={upload} noValidate>
      <Stack gap="sm">
        <Input.Wrapper label={t.issuers.certFile} required id={fileId} error={missingFile ? t.issuers.certChooseFile : errors.pfx}>
          <input
            key={inputKey}
            id={fileId}
            type="file"
            accept=".pfx,.p12,application/x-pkcs12"
            style={{ maxWidth: '100%' }}
            onChange={(e) => form.set('file', e.currentTarget.files?.[0] ?? null)}
          />
        </Input.Wrapper>
        <PasswordInput label={t.issuers.certPassword} description={t.issuers.certPasswordHint} autoComplete="off" {...form.text('password')} error={errors.password} />
        <ApiError error={error} />
        <Button type="submit" loading={busy} style={{ alignSelf: 'start' }}>
          {t.issuers.certUpload}
        </Button>
      </Stack>
    </form>
  );
}
