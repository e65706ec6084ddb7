import { Button, Group, Text } from '@mantine/core';
import { t } from '../i18n/index.js';

/**
 * "Anterior / Página N / Próxima" over the API's cursor pages: the screen keeps the stack of cursors
 * it followed (the id of each page's last row), so going back needs no backward cursor.
 */
export function CursorPager({ page, hasPrevious, hasMore, onPrevious, onNext, size }: { page: number; hasPrevious: boolean; hasMore: boolean; onPrevious: () => void; onNext: () => void; size?: 'xs' }) {
  return (
    <Group justify="space-between">
      <Button variant="default" size={size} disabled={!hasPrevious} onClick={onPrevious}>
        {t.previous}
      </Button>
      <Text size="sm">{t.pageNumber(page)}</Text>
      <Button variant="default" size={size} disabled={!hasMore} onClick={onNext}>
        {t.next}
      </Button>
    </Group>
  );
}
