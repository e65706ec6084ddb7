import { Paper, Text, Timeline, Title } from '@mantine/core';
import { Loaded } from '../../components/page.js';
import { t } from '../../i18n/index.js';
import { formatDateTime } from '../../i18n/format.js';
import type { Family } from './families.js';
import { useNoteEvents } from './use-notes.js';

/** GET /v1/<family>/{id}/events, oldest first: what happened to the note and what the authority said. */
export function EventTimeline({ family, id, version }: { family: Family; id: string; version: string }) {
  const events = useNoteEvents(family, id, version);
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        {t.documents.timeline}
      </Title>
      <Loaded query={events}>
        {({ data }) =>
          data.length === 0 ? (
            <Text size="sm">{t.documents.noEvents}</Text>
          ) : (
            <Timeline active={data.length - 1} bulletSize={14} lineWidth={2} data-testid="timeline">
              {data.map((e) => (
                <Timeline.Item key={e.id} title={t.documents.events[e.type] ?? e.type}>
                  <Text size="xs">{formatDateTime(e.at)}</Text>
                  {(e.code || e.message) && (
                    <Text size="sm">
                      {[e.code, e.message].filter(Boolean).join(' – ')}
                    </Text>
                  )}
                  {e.protocolo && (
                    <Text size="xs">
                      {t.documents.protocol}: {e.protocolo}
                    </Text>
                  )}
                </Timeline.Item>
              ))}
            </Timeline>
          )
        }
      </Loaded>
    </Paper>
  );
}
