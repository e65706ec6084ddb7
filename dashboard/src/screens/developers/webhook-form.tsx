import { Button, Checkbox, SimpleGrid, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { t } from '../../i18n/index.js';
import { EVENT_TYPES, type EventType } from './contract.js';

export interface WebhookFields {
  url: string;
  event_types: EventType[];
  description: string;
  enabled: boolean;
}

const w = t.developers.webhooks;

/**
 * The fields of an endpoint, for creation (POST) and change (PATCH): URL, the event types the API
 * accepts, a description and, when editing, whether it is on.
 */
export function WebhookForm({ initial, submitLabel, busy, error, withEnabled, onSubmit }: {
  initial: WebhookFields;
  submitLabel: string;
  busy: boolean;
  error: ReactNode;
  withEnabled: boolean;
  onSubmit: (fields: WebhookFields) => void;
}) {
  const [fields, setFields] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(fields);
  };
  return (
    <form onSubmit={submit}>
      <Stack>
        <TextInput label={w.url} description={w.urlHint} type="url" required maxLength={2048} placeholder="https://" value={fields.url} onChange={(e) => setFields({ ...fields, url: e.currentTarget.value })} data-autofocus />
        <Textarea label={w.description} maxLength={500} autosize minRows={2} value={fields.description} onChange={(e) => setFields({ ...fields, description: e.currentTarget.value })} />
        <Checkbox.Group label={w.events} value={fields.event_types} onChange={(v) => setFields({ ...fields, event_types: EVENT_TYPES.filter((e) => v.includes(e)) })} withAsterisk>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
            {EVENT_TYPES.map((e) => (
              <Checkbox key={e} value={e} label={e === '*' ? w.allEvents : e} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        {withEnabled && <Switch label={w.enabled} checked={fields.enabled} onChange={(e) => setFields({ ...fields, enabled: e.currentTarget.checked })} />}
        {error}
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
