import { Alert, Group, Loader, Stack, Text } from '@mantine/core';
import { Loaded, Page } from '../../components/page.js';
import { t } from '../../i18n/index.js';
import { formatDateTime } from '../../i18n/format.js';
import { useSession } from '../../session.js';
import { CancelForm } from './cancel-form.js';
import { CcePanel } from './cce-form.js';
import { DanfeFrame } from './danfe-frame.js';
import { DetailFacts } from './detail-facts.js';
import { EventTimeline } from './event-timeline.js';
import { isSettling, summarize, type AnyRecord, type Family } from './families.js';
import { RejectionPanel } from './rejection-panel.js';
import { StatusBadge } from './status-badge.js';
import { useIssuers, useNote } from './use-notes.js';

/** One note: its facts, why it was rejected, its DANFE and XML, its history, and what the role may do with it. */
export function DocumentDetail({ family, id }: { family: Family; id: string }) {
  const note = useNote(family, id);
  return <Loaded query={note}>{(n) => <Detail family={family} note={n} />}</Loaded>;
}

function Detail({ family, note }: { family: Family; note: AnyRecord }) {
  const session = useSession();
  const issuers = useIssuers();
  const issuer = issuers.data?.data.find((i) => i.id === note.issuer_id);
  const canWrite = session.can(`${family}:write`);
  const live = isSettling(note);
  const familyName = t.documents.families[family] ?? family;
  return (
    <Page title={t.documents.detailTitle(familyName, summarize(note).number)} actions={<StatusBadge status={note.status} />}>
      <Stack gap="md" className="long-words">
        {live && (
          <Group gap="xs" role="status" aria-live="polite">
            <Loader size="xs" aria-hidden="true" />
            <Text size="sm">{t.documents.live}</Text>
          </Group>
        )}
        {'contingency' in note && note.contingency && 'deadline_at' in note.contingency && note.status === 'contingency' && (
          <Alert color="orange">{t.documents.contingencyDeadline(formatDateTime(note.contingency.deadline_at))}</Alert>
        )}
        {note.object === 'nfe' && 'contingency' in note && note.contingency && 'entered_at' in note.contingency && (
          <Alert color="orange" data-testid="nfe-contingency">
            {t.documents.nfeContingency(note.contingency.type, note.status === 'authorized' || note.status === 'canceled', formatDateTime(note.contingency.entered_at), note.contingency.reason)}
          </Alert>
        )}
        {note.rejection && <RejectionPanel rejection={note.rejection} />}
        {note.cancellation && <Alert color="gray">{t.documents.canceledInfo(note.cancellation.reason)}</Alert>}
        <DetailFacts note={note} issuerName={issuer ? (issuer.nome_fantasia ?? issuer.razao_social) : note.issuer_id} />
        {canWrite && note.status === 'authorized' && <CancelForm family={family} note={note} />}
        {note.object === 'nfe' && <CcePanel note={note} canWrite={canWrite} />}
        <DanfeFrame family={family} note={note} />
        <EventTimeline family={family} id={note.id} version={`${note.status}:${note.updated_at}`} />
      </Stack>
    </Page>
  );
}
