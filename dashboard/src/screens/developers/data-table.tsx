import { Text, type TableProps } from '@mantine/core';
import { ScrollTable } from '../../components/scroll-table.js';
import type { ReactNode } from 'react';
import { Loaded } from '../../components/page.js';
import { MoreButton, type usePaged } from './paged.js';

/** The developers screens' table: the shared one (components/scroll-table.tsx), striped. */
export function DataTable({ headers, ...table }: { minWidth: number; label: string; headers: string[]; children: ReactNode } & Omit<TableProps, 'children'>) {
  return <ScrollTable head={headers} striped verticalSpacing="sm" {...table} />;
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
