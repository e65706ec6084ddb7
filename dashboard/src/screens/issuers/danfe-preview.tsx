import { Anchor, Box, Divider, Group, Image, Stack, Text, Title } from '@mantine/core';
import { t } from '../../i18n/index.js';
import { formatMoney, formatTaxId } from '../../i18n/format.js';
import { useLatestNotes } from './latest-notes.js';
import type { Issuer } from './model.js';

/** The DANFE's ink when the issuer chose none (src/danfe/danfe-theme.ts). */
export const DEFAULT_DANFE_COLOR = '#000000';

/**
 * A sample receipt laid out like the DANFE NFC-e with the settings being edited: logo on top, the
 * color on the rules, the footer text at the end. It changes as the member types, before saving.
 * The real DANFE (PDF) of the issuer's latest NFC-e, which carries the saved settings, is a link.
 */
export function DanfePreview({ issuer, color, footer, logo }: { issuer: Issuer; color: string; footer: string; logo: string | null }) {
  const latest = useLatestNotes(issuer.id);
  const ink = /^#[0-9A-Fa-f]{6}$/.test(color) ? color : DEFAULT_DANFE_COLOR;
  const rule = { borderTop: `3px solid ${ink}` };
  const e = issuer.endereco;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t.issuers.preview}
      </Title>
      <Text size="sm">{t.issuers.previewNote}</Text>
      <Box
        data-testid="danfe-preview"
        data-color={ink.toLowerCase()}
        p="sm"
        bg="white"
        c="black"
        ff="monospace"
        style={{ maxWidth: 320, width: '100%', border: '1px solid #ced4da', ...rule, borderTopWidth: 8 }}
      >
        <Stack gap={4} align="center">
          {logo && <Image src={logo} alt={t.issuers.previewLogo} maw={120} mah={80} fit="contain" />}
          <Text fw={700} size="sm" ta="center">
            {issuer.razao_social}
          </Text>
          <Text size="xs" ta="center">
            CNPJ {formatTaxId(issuer.cnpj)} · IE {issuer.ie}
          </Text>
          {e && (
            <Text size="xs" ta="center">
              {e.logradouro}, {e.numero} · {e.bairro} · {e.municipio ?? e.codigo_municipio}/{issuer.uf}
            </Text>
          )}
        </Stack>
        <Divider my={6} style={rule} />
        <Text size="xs" ta="center">
          {t.issuers.previewTitle}
        </Text>
        <Group justify="space-between" wrap="nowrap" mt={6}>
          <Text size="xs">2 × {t.issuers.previewItem}</Text>
          <Text size="xs">{formatMoney(37.8)}</Text>
        </Group>
        <Group justify="space-between" wrap="nowrap">
          <Text size="xs" fw={700}>
            {t.issuers.previewTotal}
          </Text>
          <Text size="xs" fw={700}>
            {formatMoney(37.8)}
          </Text>
        </Group>
        {footer.trim() && (
          <>
            <Divider my={6} style={rule} />
            <Text size="xs" ta="center" data-testid="danfe-preview-footer" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {footer.trim()}
            </Text>
          </>
        )}
      </Box>
      {latest.data?.nfce && (
        <Anchor href={`/v1/nfce/${latest.data.nfce.id}/danfe.pdf`} download size="sm">
          {t.issuers.previewLatest}
        </Anchor>
      )}
    </Stack>
  );
}
