import { Card, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One block of the overview: a bordered card with its h2 (the page's h1 is the title). */
export function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Card withBorder padding="md" radius="md" component="section" aria-label={title} data-testid={testId}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}
