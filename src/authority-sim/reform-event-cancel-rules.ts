// 110001 Cancelamento de Evento as the simulated authority plays it (NT 2025.002-RTC v1.31 section 8.14.3;
// docs/fiscal/reform-events.md). The general event reception rules (lot schema 215, event schema 493,
// signature, 573 duplicate) run in event-service.ts; the NT's specific rules are data here: its rule id,
// the official cStat and its message. P23-10 (110001 itself, 110111, 110112... not cancellable) is the
// schema's (e110001_v1.00.xsd enumerates tpEventoAut), answered 493 by the event schema check.
import { sliceAll, textOf } from '../fiscal/sefaz/xml-slice.js';
import type { SimContext } from './sim-context.js';

export const EVENT_CANCELLATION = '110001';

export interface EventCancellationRule {
  id: string;
  cStat: number;
  message: string;
}

/** The NT's specific rules, in its order (8.14.3). */
export const EVENT_CANCELLATION_RULES: readonly EventCancellationRule[] = [
  { id: '1P06-10', cStat: 459, message: 'Rejeição: Cancelamento de Evento inexistente' },
  { id: '1P10-10', cStat: 1113, message: 'Rejeição: Autor do Evento de Cancelamento diverge do Autor do Evento a ser cancelado' },
  { id: '1P20-10', cStat: 1178, message: 'Rejeição: Órgão do Autor do Evento de Cancelamento diverge do órgão do Autor do Evento a ser cancelado' },
  { id: '1P24-10', cStat: 460, message: 'Rejeição: Protocolo do Evento difere do cadastrado' },
];

/** The messages of the codes cstat.json (older than the NT) lacks. */
export const EVENT_CANCELLATION_MESSAGES: Readonly<Record<number, string>> = Object.fromEntries(
  EVENT_CANCELLATION_RULES.filter((r) => r.cStat === 1113 || r.cStat === 1178).map((r) => [r.cStat, r.message]),
);

const authorOf = (xml: string) => textOf(xml, 'CNPJ') ?? textOf(xml, 'CPF');

/**
 * The first NT 8.14.3 rule the cancellation breaks (its cStat), or null. The event cancelled is looked up
 * as the NT says, by access key, tpEventoAut and the cancellation's own nSeqEvento (1P06-10, 459); then
 * its author (1P10-10, 1113), its cOrgaoAutor (1P20-10, 1178) and its protocol (1P24-10, 460).
 */
export async function eventCancellationRejection(evento: string, ctx: SimContext): Promise<number | null> {
  const key = textOf(evento, 'chNFe') ?? '';
  const tpEventoAut = textOf(evento, 'tpEventoAut') ?? '';
  const seq = Number(textOf(evento, 'nSeqEvento'));
  const proc = (await ctx.store.eventsOf(key)).find((p) => {
    const inner = sliceAll(p, 'infEvento')[0]?.inner ?? '';
    return textOf(inner, 'tpEvento') === tpEventoAut && Number(textOf(inner, 'nSeqEvento')) === seq;
  });
  if (!proc) return 459;
  const cancelled = sliceAll(proc, 'infEvento')[0]?.inner ?? '';
  if (authorOf(cancelled) !== authorOf(evento)) return 1113;
  if (textOf(cancelled, 'cOrgaoAutor') !== textOf(evento, 'cOrgaoAutor')) return 1178;
  const nProt = textOf(sliceAll(proc, 'retEvento')[0]?.inner ?? '', 'nProt');
  if (nProt !== textOf(evento, 'nProtEvento')) return 460;
  return null;
}
