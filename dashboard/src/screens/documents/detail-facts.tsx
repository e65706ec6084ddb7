import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { t } from '../../i18n/index.js';
import { formatDateTime, formatMoney, formatTaxId } from '../../i18n/format.js';
import { summarize, type AnyRecord } from './families.js';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} component="div">
      <Text size="xs" fw={700} component="dt">
        {label}
      </Text>
      <Text size="sm" component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** What identifies the note: number and series, keys, parties, total, dates, protocol, environment. */
export function DetailFacts({ note, issuerName }: { note: AnyRecord; issuerName: string }) {
  const s = summarize(note);
  const customer = s.customer && (s.customer.name || s.customer.tax_id) ? [s.customer.name, s.customer.tax_id && formatTaxId(s.customer.tax_id)].filter(Boolean).join(' · ') : t.documents.noCustomer;
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        {t.documents.facts}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" component="dl" m={0}>
        <Fact label={t.documents.columns.number}>{t.documents.numberSerie(s.number, s.serie)}</Fact>
        <Fact label={t.documents.accessKey}>
          <span data-testid="access-key">{note.access_key ?? '—'}</span>
        </Fact>
        {note.object === 'nfse' && <Fact label={t.documents.dpsId}>{note.dps.id}</Fact>}
        <Fact label={t.documents.issuer}>{issuerName}</Fact>
        <Fact label={t.documents.customer}>{customer}</Fact>
        <Fact label={t.documents.total}>{formatMoney(s.total)}</Fact>
        <Fact label={t.documents.createdAt}>{formatDateTime(note.created_at)}</Fact>
        <Fact label={t.documents.authorizedAt}>{formatDateTime(note.authorized_at)}</Fact>
        {'protocolo' in note && <Fact label={t.documents.protocol}>{note.protocolo ?? '—'}</Fact>}
        <Fact label={t.documents.environment}>{t.documents.environments[note.ambiente] ?? note.ambiente}</Fact>
        {note.external_ref && <Fact label={t.documents.externalRef}>{note.external_ref}</Fact>}
      </SimpleGrid>
    </Paper>
  );
}
