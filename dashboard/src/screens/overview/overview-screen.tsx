import { Button, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, orThrow } from '../../api/client.js';
import { Loaded, Page } from '../../components/page.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { CertificatesSection } from './certificates-section.js';
import { ContingencySection } from './contingency-section.js';
import { DocumentsSection } from './documents-section.js';
import { LatencySection } from './latency-section.js';
import { RejectionsSection } from './rejections-section.js';
import type { Overview } from './types.js';
import { UsageSection } from './usage-section.js';

const w = t.overview;

/** The home page: the account at a glance, refreshed every minute while it is open. */
export function OverviewScreen() {
  const query = useQuery({
    queryKey: ['overview'],
    queryFn: () => orThrow(api.GET('/v1/overview')),
    refetchInterval: 60_000,
  });
  return (
    <Page
      title={w.title}
      actions={
        <Button variant="light" size="xs" onClick={() => void query.refetch()} loading={query.isFetching}>
          {w.refresh}
        </Button>
      }
    >
      <Loaded query={query}>{(o) => <Sections overview={o} />}</Loaded>
    </Page>
  );
}

function Sections({ overview: o }: { overview: Overview }) {
  const restricted = [o.documents, o.certificates, o.usage].some((s) => s === null);
  return (
    <Stack gap="lg">
      <Text size="sm">{w.asOf(formatDateTime(o.at))}</Text>
      {o.documents && <DocumentsSection documents={o.documents} />}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        {o.latency && <LatencySection latency={o.latency} />}
        {o.rejections && <RejectionsSection rejections={o.rejections} />}
        {o.contingency && <ContingencySection contingency={o.contingency} now={o.at} />}
        {o.certificates && <CertificatesSection certificates={o.certificates} />}
      </SimpleGrid>
      {o.usage && <UsageSection usage={o.usage} />}
      {restricted && <Text size="sm">{w.restricted}</Text>}
    </Stack>
  );
}
