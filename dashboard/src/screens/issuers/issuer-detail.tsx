import { Anchor, Group, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, orThrow } from '../../api/client.js';
import { Loaded, Page } from '../../components/page.js';
import { t } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import { ArchiveAction, ArchivedBadge } from './archive-action.js';
import { ReadinessBadge } from './certificate-badge.js';
import { BuyerEmailSection } from './buyer-email-section.js';
import { CertificateSection } from './certificate-section.js';
import { CscSection } from './csc-section.js';
import { DanfeSection } from './danfe-section.js';
import { DataSection } from './data-section.js';
import { DiagnosticsSection } from './diagnostics-section.js';
import { InutilizationSection } from './inutilization-section.js';
import { NfseSection } from './nfse-section.js';
import { NumberingSection } from './numbering-section.js';

export const issuerKey = (id: string) => ['issuers', 'one', id];

/** One issuer: its data, certificate, CSC, DANFE template, numbering, inutilization and NFS-e settings. */
export function IssuerDetail() {
  const { id = '' } = useParams();
  const session = useSession();
  const query = useQuery({ queryKey: issuerKey(id), queryFn: () => orThrow(api.GET('/v1/issuers/{id}', { params: { path: { id } } })) });
  const title = query.data ? (query.data.nome_fantasia ?? query.data.razao_social) : t.issuers.title;
  const canWrite = session.can('issuers:write');
  return (
    <Page title={title} actions={<Anchor component={Link} to="/issuers">{t.issuers.backToList}</Anchor>}>
      <Loaded query={query}>
        {(issuer) => (
          <Stack>
            <Group>
              <ReadinessBadge issuer={issuer} />
              <ArchivedBadge issuer={issuer} />
            </Group>
            <ArchiveAction issuer={issuer} canWrite={canWrite} />
            <DataSection issuer={issuer} canWrite={canWrite} />
            <CertificateSection issuer={issuer} canWrite={canWrite} />
            <CscSection issuer={issuer} canWrite={canWrite} />
            <DiagnosticsSection issuer={issuer} />
            <DanfeSection issuer={issuer} canWrite={canWrite} />
            <BuyerEmailSection issuer={issuer} canWrite={canWrite} />
            <NumberingSection issuer={issuer} />
            {session.can('nfce:write') && <InutilizationSection issuer={issuer} />}
            <NfseSection issuer={issuer} canWrite={canWrite} />
          </Stack>
        )}
      </Loaded>
    </Page>
  );
}
