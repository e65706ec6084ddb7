import { Table, Text, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { Loaded } from '../../components/page.js';
import { MoreButton, type usePaged } from './paged.js';

/**
 * A table with its column headers that scrolls sideways on a phone rather than the page. Its
 * viewport takes the keyboard focus (a named region), so a table without links or buttons can
 * still be scrolled without a mouse.
 */
export function DataTable({ minWidth, label, headers, children, ...table }: { minWidth: number; label: string; headers: string[]; children: ReactNode } & TableProps) {
  return (
    <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } }}>
      <Table striped verticalSpacing="sm" aria-label={label} {...table}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((h) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A paged list of the API as a table: loading and errors, a line when empty, "Carregar mais". */
export function PagedTable<T extends { id: string }>({ paged, empty, row, ...table }: {
  paged: ReturnType<typeof usePaged<T>>;
  empty: string;
  row: (item: T) => ReactNode;
  minWidth: number;
  label: string;
  headers: string[];
} & Omit<TableProps, 'children'>) {
  return (
    <>
      <Loaded query={paged}>{(items) => (items.length === 0 ? <Text>{empty}</Text> : <DataTable {...table}>{items.map(row)}</DataTable>)}</Loaded>
      <MoreButton paged={paged} />
    </>
  );
}
