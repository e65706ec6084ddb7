import { Table, Text } from '@mantine/core';
import { Loaded } from '../../components/page.js';
import { t } from '../../i18n/index.js';
import { useLatestNotes } from './latest-notes.js';
import type { Issuer } from './model.js';
import { Section } from './section.js';

/**
 * Where each numbering stands, as the API shows it: the series and number of the issuer's latest
 * note of each model (the gateway numbers them gap-free; the API has no separate series resource),
 * and the DPS series of the NFS-e settings.
 */
export function NumberingSection({ issuer }: { issuer: Issuer }) {
  const latest = useLatestNotes(issuer.id);
  return (
    <Section title={t.issuers.numbering} testId="numbering">
      <Text size="sm">{t.issuers.numberingText}</Text>
      <Loaded query={latest}>
        {(l) => {
          const rows: [string, { serie: number; number: number } | null, number | undefined][] = [
            [t.nav.nfce, l.nfce, undefined],
            [t.nav.nfe, l.nfe, undefined],
            [t.nav.nfse, l.nfse, issuer.nfse?.dps_series],
          ];
          return (
            <Table.ScrollContainer minWidth={360}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t.issuers.numberingModel}</Table.Th>
                    <Table.Th>{t.issuers.numberingSerie}</Table.Th>
                    <Table.Th>{t.issuers.numberingLast}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map(([model, note, configured]) => (
                    <Table.Tr key={model}>
                      <Table.Td>{model}</Table.Td>
                      <Table.Td>{note?.serie ?? configured ?? '—'}</Table.Td>
                      <Table.Td>{note ? note.number : t.issuers.numberingNone}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          );
        }}
      </Loaded>
    </Section>
  );
}
