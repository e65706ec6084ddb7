import { Anchor, Group, Paper, Text, Title } from '@mantine/core';
import { t } from '../../i18n/index.js';
import { pdfPath, xmlPath, type AnyRecord, type Family } from './families.js';

/**
 * The DANFE (DANFSe for an NFS-e) inline, in a frame of the gateway's own PDF route (the dashboard's
 * CSP allows frame-src 'self'; the route sends no framing restriction and answers a browser's frame
 * request inline, every other request as a download), with the PDF and XML to download beside it. The
 * API names the links once the document is printable; before that there is nothing to show.
 */
export function DanfeFrame({ family, note }: { family: Family; note: AnyRecord }) {
  const printable = 'danfse_url' in note ? Boolean(note.danfse_url) : 'danfe_url' in note && Boolean(note.danfe_url);
  const name = family === 'nfse' ? t.documents.danfse : t.documents.danfe;
  const pdf = pdfPath(family, note.id);
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        {name}
      </Title>
      {printable ? (
        <>
          <Group gap="md" mb="sm">
            <Anchor href={pdf} download>
              {t.documents.openPdf}
            </Anchor>
            {note.xml_url && (
              <Anchor href={xmlPath(family, note.id)} download data-testid="xml-link">
                {t.documents.downloadXml}
              </Anchor>
            )}
          </Group>
          <iframe src={pdf} title={t.documents.danfeFrame(t.documents.families[family] ?? family)} data-testid="danfe-frame" style={{ width: '100%', height: family === 'nfce' ? 640 : 800, border: '1px solid var(--mantine-color-gray-4)' }} />
        </>
      ) : (
        <Text size="sm">{t.documents.danfeUnavailable}</Text>
      )}
    </Paper>
  );
}
