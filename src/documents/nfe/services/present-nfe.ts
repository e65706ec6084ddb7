import type { Note } from '../../notes/domain/note.js';
import { presentNoteCore } from '../../notes/services/present-note.js';

/**
 * The NF-e record of the API: the fields every note has, then the recipient as sent and the
 * correction letters (CC-e) with the consolidated text in force.
 */
export function presentNfe(row: Note, baseUrl: string) {
  const request = (row.request ?? {}) as { destinatario?: { name?: string; cnpj?: string; cpf?: string; id_estrangeiro?: string } };
  const d = request.destinatario;
  return {
    ...presentNoteCore(row, baseUrl, 'nfe'),
    destinatario: d ? { name: d.name ?? null, tax_id: d.cnpj ?? d.cpf ?? d.id_estrangeiro ?? null } : null,
    correction: row.corrections?.current ?? null,
    corrections: row.corrections?.letters ?? [],
  };
}

export type NfeView = ReturnType<typeof presentNfe>;
