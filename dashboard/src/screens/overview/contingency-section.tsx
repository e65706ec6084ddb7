import { Anchor, Badge, Group, List, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/index.js';
import { Section } from './section.js';
import type { Overview } from './types.js';

const w = t.overview.contingency;
// The deadline is 24 h after entering contingency; the last few hours call for attention.
const NEAR_MS = 6 * 3_600_000;

/** Notes waiting in offline contingency, nearest deadline first; near and past deadlines stand out. */
export function ContingencySection({ contingency, now }: { contingency: NonNullable<Overview['contingency']>; now: string }) {
  const at = Date.parse(now);
  return (
    <Section title={w.heading} testId="overview-contingency">
      {contingency.outstanding === 0 ? (
        <Text>{w.empty}</Text>
      ) : (
        <>
          <Text size="sm">{w.outstanding(contingency.outstanding)}</Text>
          <List listStyleType="none" spacing="xs" p={0}>
            {contingency.notes.map((n) => {
              const left = n.deadline_at ? Date.parse(n.deadline_at) - at : null;
              return (
                <List.Item key={n.id}>
                  <Stack gap={0}>
                    <Group gap="xs" wrap="wrap">
                      <Anchor component={Link} to={`/documents/${n.type}/${n.id}`}>
                        {w.numbered(t.overview.types[n.type] ?? n.type, n.serie, n.number)}
                      </Anchor>
                      {left !== null && left <= 0 && <Badge color="red.9">{w.overdue}</Badge>}
                      {left !== null && left > 0 && left <= NEAR_MS && <Badge color="red.9" variant="outline">{w.near}</Badge>}
                    </Group>
                    <Text size="sm">
                      {w.deadline}: {formatDateTime(n.deadline_at)}
                    </Text>
                  </Stack>
                </List.Item>
              );
            })}
          </List>
          {contingency.has_more && (
            <Anchor component={Link} to="/documents/nfce?status=contingency" size="sm">
              {w.more}
            </Anchor>
          )}
        </>
      )}
    </Section>
  );
}
