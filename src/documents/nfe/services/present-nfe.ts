import type { Note } from '../../notes/domain/note.js';
import { presentNoteCore } from '../../notes/services/present-note.js';
import { textOf } from '../../../fiscal/sefaz/xml-slice.js';

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
    contingency: svcContingencyOf(row),
  };
}

type NfeContingencyView =
  | { type: 'svc_an' | 'svc_rs'; entered_at: string; reason: string }
  | { type: 'epec'; entered_at: string; reason: string; protocol: string | null; registered_at: string | null };

/**
 * A note issued for the SVC (tpEmis 6/7, docs/fiscal/svc.md) or in EPEC (tpEmis 4, docs/fiscal/epec.md):
 * which, and its dhCont and xJust as the signed document holds them, with the EPEC's protocol once
 * registered; null for a note of the state's authorizer.
 */
function svcContingencyOf(row: Note): NfeContingencyView | null {
  if (row.tp_emis !== 6 && row.tp_emis !== 7 && row.tp_emis !== 4) return null;
  // A summary row (lists) carries no signed_xml: only the two elements (note-repository.ts SUMMARY).
  const xml = (row.signed_xml as string | undefined) ?? row.svc_contingency_xml ?? '';
  if (row.tp_emis === 4) {
    return {
      type: 'epec', entered_at: textOf(xml, 'dhCont') ?? '', reason: textOf(xml, 'xJust') ?? '',
      protocol: row.epec?.protocol ?? null, registered_at: row.epec?.registered_at ?? null,
    };
  }
  return {
    type: row.tp_emis === 6 ? 'svc_an' : 'svc_rs',
    entered_at: textOf(xml, 'dhCont') ?? '',
    reason: textOf(xml, 'xJust') ?? '',
  };
}

export type NfeView = ReturnType<typeof presentNfe>;
