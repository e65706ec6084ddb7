import { Table, VisuallyHidden, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table with its column headers that scrolls sideways on a phone rather than the page. Its
 * viewport takes the keyboard's focus as a named region (axe: scrollable-region-focusable), so a
 * table of text alone can still be scrolled without a mouse; the label also captions the table.
 */
/** The scrolling viewport alone, for a table a screen lays out itself. */
export function ScrollRegion({ minWidth, label, children }: { minWidth: number; label: string; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } }}>
      {children}
    </Table.ScrollContainer>
  );
}

export function ScrollTable({ minWidth, label, head, children, ...table }: { minWidth: number; label: string; head: readonly string[]; children: ReactNode } & Omit<TableProps, 'children'>) {
  return (
    <ScrollRegion minWidth={minWidth} label={label}>
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
    </ScrollRegion>
  );
}
