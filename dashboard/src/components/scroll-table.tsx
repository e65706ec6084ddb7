import { Table, VisuallyHidden, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table with its column headers that scrolls sideways on a phone rather than the page. Its
 * viewport takes the keyboard's focus as a named region (axe: scrollable-region-focusable), so a
 * table of text alone can still be scrolled without a mouse; the label also captions the table.
 */
export function ScrollTable({ minWidth, label, head, children, ...table }: { minWidth: number; label: string; head: readonly string[]; children: ReactNode } & Omit<TableProps, 'children'>) {
  return (
    <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } }}>
      <Table aria-label={label} {...table}>
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
