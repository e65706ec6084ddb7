import { Button, ColorInput, Grid, Group, Input, Stack, Textarea } from '@mantine/core';
import { useId } from 'react';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { t } from '../../i18n/index.js';
import { DanfePreview } from './danfe-preview.js';
import type { Issuer } from './model.js';
import { Section } from './section.js';
import { useKeyedForm } from './use-form.js';
import { useIssuerAction } from './use-issuer-action.js';

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/**
 * The DANFE template (logo, color, footer; PATCH /v1/issuers/{id}/danfe-settings) beside a preview
 * that follows the inputs as they change. Members without issuers:write see the preview only.
 */
export function DanfeSection({ issuer, canWrite }: { issuer: Issuer; canWrite: boolean }) {
  const s = issuer.danfe_settings;
  const logoId = useId();
  const form = useKeyedForm({ color: s.danfePrimaryColor ?? '', footer: s.danfeFooterText ?? '', logo: s.danfeLogo });
  const v = form.values;
  const { busy, error, errors, done: saved, submit } = useIssuerAction();
  const save = submit(async () => {
    const body = {
      danfePrimaryColor: v.color || null,
      danfeFooterText: v.footer.trim() || null,
      // The stored logo is sent back only when it changed: it is normalized on the way in.
      ...(v.logo !== s.danfeLogo ? { danfeLogo: v.logo } : {}),
    };
    const updated = await orThrow(api.PATCH('/v1/issuers/{id}/danfe-settings', { params: { path: { id: issuer.id } }, body, idempotencyKey: form.idempotencyKey() }));
    const d = updated.danfe_settings;
    form.reset({ color: d.danfePrimaryColor ?? '', footer: d.danfeFooterText ?? '', logo: d.danfeLogo });
  });
  return (
    <Section title={t.issuers.danfe} testId="danfe">
      <Grid>
        {canWrite && (
          <Grid.Col span={{ base: 12, md: 6 }}>
            <form onSubmit={save} noValidate>
              <Stack gap="sm">
                <ColorInput withEyeDropper={false} label={t.issuers.danfeColor} description={t.issuers.danfeColorHint} format="hex" value={v.color} onChange={(c) => form.set('color', c)} error={errors.danfePrimaryColor} />
                <Textarea label={t.issuers.danfeFooter} description={t.issuers.danfeFooterHint} maxLength={200} autosize minRows={2} {...form.text('footer')} error={errors.danfeFooterText} />
                <Input.Wrapper label={t.issuers.danfeLogo} id={logoId} error={errors.danfeLogo}>
                  <input
                    id={logoId}
                    type="file"
                    accept="image/png,image/jpeg"
                    style={{ maxWidth: '100%' }}
                    onChange={(e) => {
                      const file = e.currentTarget.files?.[0];
                      if (file) void readDataUrl(file).then((url) => form.set('logo', url));
                    }}
                  />
                </Input.Wrapper>
                {v.logo && (
                  <Button variant="default" size="xs" style={{ alignSelf: 'start' }} onClick={() => form.set('logo', null)}>
                    {t.issuers.danfeRemoveLogo}
                  </Button>
                )}
                <ApiError error={error} />
                <Group>
                  <Button type="submit" loading={busy}>
                    {t.issuers.danfeSave}
                  </Button>
                  {saved && (
                    <span role="status">{t.issuers.danfeSaved}</span>
                  )}
                </Group>
              </Stack>
            </form>
          </Grid.Col>
        )}
        <Grid.Col span={{ base: 12, md: canWrite ? 6 : 12 }}>
          <DanfePreview issuer={issuer} color={v.color} footer={v.footer} logo={v.logo} />
        </Grid.Col>
      </Grid>
    </Section>
  );
}
