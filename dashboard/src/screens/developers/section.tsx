import { Button, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A part of a screen under its own heading (h2), with a line saying what it is. */
export function Section({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <Stack>
      <Title order={2} size="h3">
        {title}
      </Title>
      <Text size="sm">{text}</Text>
      {children}
    </Stack>
  );
}

/** What a list screen is about, and its one "new ..." action beside it. */
export function ListIntro({ text, action, onAction }: { text: string; action: string; onAction: () => void }) {
  return (
    <Group justify="space-between" wrap="wrap">
      <Text size="sm" maw={640}>
        {text}
      </Text>
      <Button onClick={onAction}>{action}</Button>
    </Group>
  );
}
