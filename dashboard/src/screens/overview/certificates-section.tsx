import { Anchor, Badge, Group, List, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatDate, formatTaxId } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { Section } from './section.js';
import type { Overview } from './types.js';

const w = t.overview.certificates;

/** Issuers whose certificate expires within 30 days (or has expired), soonest first, each linking to its issuer. */
export function CertificatesSection({ certificates }: { certificates: NonNullable<Overview['certificates']> }) {
  return (
    <Section title={w.heading} testId="overview-certificates">
      {certificates.length === 0 ? (
        <Text>{w.empty}</Text>
      ) : (
        <List listStyleType="none" spacing="xs" p={0}>
          {certificates.map((c) => (
            <List.Item key={c.issuer_id}>
              <Stack gap={0}>
                <Group gap="xs" wrap="wrap">
                  <Anchor component={Link} to={`/issuers/${c.issuer_id}`}>
                    {c.razao_social}
                  </Anchor>
                  <Badge variant={c.expired || c.days_left <= 7 ? 'filled' : 'outline'} color={c.expired || c.days_left <= 7 ? 'red.9' : 'dark'}>{c.expired ? w.expired : w.daysLeft(c.days_left)}</Badge>
                </Group>
                <Text size="sm">
                  {formatTaxId(c.cnpj)} · {w.expires} {formatDate(c.not_after)}
                </Text>
              </Stack>
            </List.Item>
          ))}
        </List>
      )}
    </Section>
  );
}
