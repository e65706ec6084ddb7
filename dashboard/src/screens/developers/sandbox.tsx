import { Badge, Button, Card, Code, List, Stack, Table, Text, Title } from '@mantine/core';
import { Fragment, useState } from 'react';
import { api, orThrow } from '../../api/client.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { useSession } from '../../session.js';
import type { Mail } from './contract.js';
import { usePaged } from './paged.js';
import { Section } from './section.js';
import { DataTable, PagedTable } from './data-table.js';

const s = t.developers.sandbox;
const CURL = `curl -s -X POST "$B/v1/nfce" \\
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
  -H 'Prefer: wait=10' -H 'X-Sandbox-Scenario: reject:778' -d @venda.json`;

/** The failures the simulated SEFAZ produces on request (X-Sandbox-Scenario), as the README lists them. */
function Scenarios() {
  return (
    <Section title={s.scenariosTitle} text={s.scenariosText}>
      <DataTable minWidth={720} label={s.scenariosTitle} headers={[s.scenario, s.whatHappens, s.noteEnds]}>
        {s.scenarios.map((x) => (
          <Table.Tr key={x.value}>
            <Table.Td>
              <Code>{x.value}</Code>
            </Table.Td>
            <Table.Td>{x.happens}</Table.Td>
            <Table.Td>{x.ends}</Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <Title order={3} size="h4">
        {s.nfseTitle}
      </Title>
      <Text size="sm">{s.nfseText}</Text>
      <List size="sm">
        {s.nfse.map((x) => (
          <List.Item key={x.value}>
            <Code>{x.value}</Code>: {x.happens}
          </List.Item>
        ))}
      </List>
      <Title order={3} size="h4">
        {s.curlExample}
      </Title>
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {CURL}
      </Code>
    </Section>
  );
}

/** GET /v1/sandbox/mail: what the gateway would have e-mailed, each message readable in place. */
function CapturedMail() {
  const paged = usePaged<Mail>(['developers', 'sandbox-mail'], (after) => orThrow(api.GET('/v1/sandbox/mail', { params: { query: { limit: 20, starting_after: after } } })));
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Section title={s.mailTitle} text={s.mailText}>
      <PagedTable
        paged={paged}
        empty={s.mailEmpty}
        minWidth={640}
        label={s.mailTitle}
        headers={[s.mailSubject, s.mailTo, s.mailState, s.mailAt]}
        row={(m) => (
          <Fragment key={m.id}>
            <Table.Tr>
              <Table.Td>
                <Button variant="subtle" size="compact-sm" aria-expanded={open === m.id} onClick={() => setOpen(open === m.id ? null : m.id)}>
                  {m.subject}
                </Button>
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>{m.to ?? s.noRecipient}</Table.Td>
              <Table.Td>
                <Badge variant="light" color="gray">
                  {s.mailStates[m.state] ?? m.state}
                </Badge>
                {m.redacted && (
                  <Badge variant="light" color="gray" ml={4}>
                    {s.mailRedacted}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{formatDateTime(m.created_at)}</Table.Td>
            </Table.Tr>
            {open === m.id && (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                    {m.text}
                  </Code>
                </Table.Td>
              </Table.Tr>
            )}
          </Fragment>
        )}
      />
    </Section>
  );
}

export default function Sandbox() {
  const session = useSession();
  if (session.account?.environment !== 'sandbox') return <Text>{s.onlySandbox}</Text>;
  return (
    <Stack gap="xl">
      <Card withBorder>
        <Title order={2} size="h3" mb="xs">
          {s.publicKeyTitle}
        </Title>
        <Text size="sm">{s.publicKeyText}</Text>
      </Card>
      <Scenarios />
      {session.can('notifications:read') && <CapturedMail />}
    </Stack>
  );
}
