import { Group, Stack, Text } from '@mantine/core';
import { t } from '../../i18n/index.js';
import { Section } from './section.js';
import type { Overview } from './types.js';

const w = t.overview.latency;

/** How long the authority took today, creation to authorization: median and 95th percentile. */
export function LatencySection({ latency }: { latency: NonNullable<Overview['latency']> }) {
  return (
    <Section title={w.heading} testId="overview-latency">
      {latency.count === 0 || latency.p50_ms === null || latency.p95_ms === null ? (
        <Text>{w.empty}</Text>
      ) : (
        <>
          <Group gap="xl">
            <Stack gap={0}>
              <Text size="sm">{w.p50}</Text>
              <Text fw={700} size="xl">{w.ms(latency.p50_ms)}</Text>
            </Stack>
            <Stack gap={0}>
              <Text size="sm">{w.p95}</Text>
              <Text fw={700} size="xl">{w.ms(latency.p95_ms)}</Text>
            </Stack>
          </Group>
          <Text size="sm">{w.measured(latency.count)}</Text>
        </>
      )}
    </Section>
  );
}
