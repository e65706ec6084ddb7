import type { Note } from '../../notes/domain/note.js';
import { presentNoteCore } from '../../notes/services/present-note.js';

/**
 * The NFC-e record of the API: the fields every note has (its QR code URL among the links), and for a
 * sale issued in contingency (offline, or SP's EPEC with its registration) why, its transmission deadline and what became of the
 * normal-emission attempt it replaced.
 */
export function presentNfce(row: Note, baseUrl: string) {
  const c = row.contingency ?? null;
  return {
    ...presentNoteCore(row, baseUrl, 'nfce'),
    consumer: consumerOf(row.request),
    contingency: c
      ? {
          type: row.tp_emis === 4 ? ('epec' as const) : ('offline' as const),
          reason: c.reason,
          entered_at: c.entered_at,
          epec: row.tp_emis === 4 && row.epec ? { protocol: row.epec.protocol ?? null, registered_at: row.epec.registered_at ?? null } : null,
          deadline_at: c.deadline_at,
          transmitted_at: c.transmitted_at ?? null,
          source: c.source ?? 'gateway',
          late: c.late === true,
          first_attempt: c.first_attempt
            ? {
                serie: c.first_attempt.serie,
                number: c.first_attempt.number,
                access_key: c.first_attempt.access_key,
                outcome: c.first_attempt.outcome,
                protocolo: c.first_attempt.protocolo ?? null,
                settled_at: c.first_attempt.settled_at ?? null,
              }
            : null,
        }
      : null,
  };
}

/**
 * The consumer as the sale named them (a receipt often has none). A sale the point of sale handed
 * over as signed XML keeps no JSON of its consumer: null there too.
 */
function consumerOf(request: unknown): { name: string | null; tax_id: string | null } | null {
  const consumer = (request as { consumer?: { name?: string; cpf?: string; cnpj?: string } } | null)?.consumer;
  if (!consumer || typeof consumer !== 'object') return null;
  return { name: consumer.name ?? null, tax_id: consumer.cpf ?? consumer.cnpj ?? null };
}

export type NfceView = ReturnType<typeof presentNfce>;
