import type { paths } from '../../api/client.js';

/** The three document families of the area, each read with its own scope. */
export const FAMILIES = ['nfce', 'nfe', 'nfse'] as const;
export type Family = (typeof FAMILIES)[number];

export const isFamily = (value: string | undefined): value is Family => (FAMILIES as readonly string[]).includes(value ?? '');

export type NfceRecord = paths['/v1/nfce/{id}']['get']['responses'][200]['content']['application/json'];
export type NfeRecord = paths['/v1/nfe/{id}']['get']['responses'][200]['content']['application/json'];
export type NfseRecord = paths['/v1/nfse/{id}']['get']['responses'][200]['content']['application/json'];
export type AnyRecord = NfceRecord | NfeRecord | NfseRecord;
export type NoteEvent = paths['/v1/nfce/{id}/events']['get']['responses'][200]['content']['application/json']['data'][number];
export type ListQuery = NonNullable<paths['/v1/nfce']['get']['parameters']['query']>;
export type NoteStatus = NonNullable<ListQuery['status']>;

export const STATUSES: Record<Family, readonly NoteStatus[]> = {
  nfce: ['processing', 'contingency', 'authorized', 'rejected', 'denied', 'canceled'],
  nfe: ['processing', 'authorized', 'rejected', 'denied', 'canceled'],
  nfse: ['processing', 'authorized', 'rejected', 'canceled'],
};

/** Same-origin paths of the printable files: the session cookie authenticates a frame or a link. */
export const pdfPath = (family: Family, id: string) => `/v1/${family}/${id}/${family === 'nfse' ? 'danfse' : 'danfe'}.pdf`;
export const xmlPath = (family: Family, id: string) => `/v1/${family}/${id}/xml`;

/** A note still on its way: the authority has not answered for good, or a cancellation is being sent. */
export function isSettling(note: AnyRecord): boolean {
  if (note.status === 'processing' || note.status === 'contingency' || note.cancellation_pending) return true;
  return 'corrections' in note && note.corrections.some((l) => l.status === 'pending');
}

/** The fields every screen shows, read the same way from the three records. */
export interface NoteSummary {
  number: number | string | null;
  serie: number | null;
  customer: { name: string | null; tax_id: string | null } | null;
  total: number | undefined;
}

export function summarize(note: AnyRecord): NoteSummary {
  if (note.object === 'nfse') return { number: note.number ?? note.dps.number, serie: note.dps.serie, customer: note.tomador, total: note.values.vServ };
  const customer = note.object === 'nfe' ? note.destinatario : note.consumer;
  return { number: note.number, serie: note.serie, customer, total: note.totals.vNF };
}
