import { Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { t } from '../../i18n/index.js';
import { useReadableFamilies } from './use-families.js';
import type { Family } from './families.js';

/** Links to each family this role reads; the current one marked for screen readers too. */
export function FamilyNav({ current }: { current: Family }) {
  const families = useReadableFamilies();
  return (
    <Group component="nav" aria-label={t.documents.familyTabs} gap="xs">
      {families.map((f) => (
        <Button key={f} component={Link} to={`/documents/${f}`} variant={f === current ? 'filled' : 'default'} aria-current={f === current ? 'page' : undefined} size="sm">
          {t.documents.families[f]}
        </Button>
      ))}
    </Group>
  );
}
