import { Badge } from '@mantine/core';
import { t } from '../../i18n/index.js';

const COLORS: Record<string, string> = {
  processing: 'blue',
  contingency: 'orange',
  authorized: 'green',
  rejected: 'red',
  denied: 'red',
  canceled: 'gray',
};

/** A note's status in words and color (the word carries the meaning; the color only helps). */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="light" data-testid="note-status">
      {t.status[status] ?? status}
    </Badge>
  );
}
