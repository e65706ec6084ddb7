import { Table, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The people screens' table: its column headers, then the rows given as children. It scrolls
 * sideways on a phone, and its scrolling viewport takes the keyboard's focus (axe:
 * scrollable-region-focusable), since a table of text alone has nothing else to focus.
 */
export function ScrollTable({ minWidth, label, head, striped, children }: { minWidth: number; label: string; head: readonly string[]; striped?: boolean; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } }}>
      <Table striped={striped}>
        <VisuallyHidden component="caption">{label}</VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            {head.map((h) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
