import { Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, orThrow } from '../../api/client.js';
import { Loaded } from '../../components/page.js';
import { ScrollTable } from '../../components/scroll-table.js';
import { t } from '../../i18n/index.js';
import { useLatestNotes } from './latest-notes.js';
import { fill, type Issuer } from './model.js';
import { Section } from './section.js';
import { SeriesForm } from './series-form.js';
import { NewSeriesForm } from './new-series-form.js';

/**
 * Where each numbering stands: the NF-e and NFC-e series of the issuer as GET /v1/issuers/{id}/series
 * gives them (next number, highest used, ranges voided ahead, retired), and the NFS-e's DPS series with
 * its latest note. A member who may change the issuer sets a series' next number or retires it
 * (SeriesForm) or opens a new one (NewSeriesForm, POST /v1/issuers/{id}/series).
 */
export function NumberingSection({ issuer, canWrite }: { issuer: Issuer; canWrite: boolean }) {
  const series = useQuery({
    queryKey: ['issuer-series', issuer.id],
    queryFn: () => orThrow(api.GET('/v1/issuers/{id}/series', { params: { path: { id: issuer.id } } })),
  });
  const latest = useLatestNotes(issuer.id);
  return (
    <Section title={t.issuers.numbering} testId="numbering">
      <Text size="sm">{t.issuers.numberingText}</Text>
      <Loaded query={series}>
        {(s) => (
          <Loaded query={latest}>
            {(l) => (
              <ScrollTable
                minWidth={560}
                label={t.issuers.numbering}
                head={[t.issuers.numberingModel, t.issuers.numberingSerie, t.issuers.numberingNext, t.issuers.numberingLast, t.issuers.numberingVoidedAhead]}
              >
                {s.data.map((row) => (
                  <Table.Tr key={`${row.model}-${row.series}`}>
                    <Table.Td>{row.model === 55 ? t.nav.nfe : t.nav.nfce}</Table.Td>
                    <Table.Td>{row.status === 'retired' ? fill(t.issuers.numberingRetired, { serie: row.series }) : row.series}</Table.Td>
                    <Table.Td>{row.next_number}</Table.Td>
                    <Table.Td>{row.highest_used ?? t.issuers.numberingNone}</Table.Td>
                    <Table.Td>{row.voided_ahead.map((r) => (r.from === r.to ? r.from : `${r.from}–${r.to}`)).join(', ') || '—'}</Table.Td>
                  </Table.Tr>
                ))}
                <Table.Tr>
                  <Table.Td>{t.nav.nfse}</Table.Td>
                  <Table.Td>{l.nfse?.serie ?? issuer.nfse?.dps_series ?? '—'}</Table.Td>
                  <Table.Td>—</Table.Td>
                  <Table.Td>{l.nfse ? l.nfse.number : t.issuers.numberingNone}</Table.Td>
                  <Table.Td>—</Table.Td>
                </Table.Tr>
              </ScrollTable>
            )}
          </Loaded>
        )}
      </Loaded>
      {canWrite && series.data && !issuer.archived_at && <SeriesForm issuerId={issuer.id} rows={series.data.data} />}
      {canWrite && !issuer.archived_at && <NewSeriesForm issuerId={issuer.id} />}
    </Section>
  );
}
