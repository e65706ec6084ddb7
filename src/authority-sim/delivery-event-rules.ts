// The delivery events' business rules as the simulated authority plays them (docs/fiscal/delivery-events.md):
// NT 2021.001 v1.01 section 3.7/4.7/5.1 (proof 110130, its cancellation 110131, at the Ambiente Nacional) and
// NT 2023.005 v1.02 section 3.7/4.7/5.1 (failure 110192, its cancellation 110193, at SVRS). The rows are data:
// rule id of the NT, the events it applies to, the official cStat and its message. The generic rules both NTs
// repeat from the event reception (schema 493, signature, 573 duplicate, 574 author) run in event-service.ts.
import { sliceAll, textOf } from '../fiscal/sefaz/xml-slice.js';
import type { SimContext } from './sim-context.js';
import type { NoteRow } from './sim-store.js';

export const PROOF = '110130';
export const PROOF_CANCEL = '110131';
export const FAILURE = '110192';
export const FAILURE_CANCEL = '110193';
export const DELIVERY_EVENTS: ReadonlySet<string> = new Set([PROOF, PROOF_CANCEL, FAILURE, FAILURE_CANCEL]);

export interface DeliveryEventRule {
  /** The NT's rule id (section 3.7 for the event, 4.7 for its cancellation, 5.1 for the NF-e cancellation). */
  id: string;
  source: 'NT 2021.001 v1.01' | 'NT 2023.005 v1.02' | 'both';
  events: readonly string[];
  cStat: number;
  message: string;
}

const ALL = [PROOF, PROOF_CANCEL, FAILURE, FAILURE_CANCEL];

/** The rules specific to these events, in the order the NTs list them. */
export const DELIVERY_EVENT_RULES: readonly DeliveryEventRule[] = [
  { id: 'P08-10', source: 'both', events: ALL, cStat: 250, message: 'Rejeição: UF diverge da UF autorizadora' },
  { id: 'P12-30', source: 'both', events: ALL, cStat: 450, message: 'Rejeição: Modelo da NF-e diferente de 55' },
  { id: 'P20-10', source: 'both', events: ALL, cStat: 455, message: 'Rejeição: Órgão Autor do evento difere da UF da Chave de Acesso' },
  { id: 'P30-10', source: 'both', events: [PROOF, FAILURE], cStat: 821, message: 'Rejeição: Data-Hora de Entrega superior a data de emissão do evento' },
  { id: 'P36-10', source: 'both', events: [PROOF, FAILURE], cStat: 822, message: 'Rejeição: Data-Hora do Hash do Comprovante de Entrega superior a data de emissão do evento' },
  { id: '2P12-10', source: 'both', events: ALL, cStat: 494, message: 'Rejeição: Chave de Acesso Inexistente' },
  { id: '2P12-22', source: 'both', events: ALL, cStat: 580, message: 'Rejeição: Evento exige uma NF-e autorizada' },
  { id: '2P30-10', source: 'both', events: [PROOF, FAILURE], cStat: 823, message: 'Rejeição: Data-Hora de Entrega inferior a data de emissão da NF-e' },
  { id: '2P36-10', source: 'both', events: [PROOF, FAILURE], cStat: 824, message: 'Rejeição: Data-Hora do Hash do Comprovante de Entrega inferior a data de emissão da NF-e' },
  { id: '3P15-14', source: 'both', events: [PROOF, FAILURE], cStat: 825, message: 'Rejeição: Não permitido mais de um Evento deste tipo para a NF-e' },
  { id: '4P15-10', source: 'both', events: [PROOF_CANCEL, FAILURE_CANCEL], cStat: 459, message: 'Rejeição: Cancelamento de Evento inexistente' },
  { id: '4P23-10', source: 'both', events: [PROOF_CANCEL, FAILURE_CANCEL], cStat: 460, message: 'Rejeição: Protocolo do Evento difere do cadastrado' },
  // 5.1 of both NTs: the NF-e cancellation (110111) while a proof or failure stands.
  { id: '4P15-30', source: 'both', events: ['110111'], cStat: 826, message: 'Rejeição: Pedido de Cancelamento para NF-e com evento de registro de Entrega' },
];

/** The message the NTs give the codes that cstat.json (older than both) lacks. */
const NEW_CODES = new Set([459, 460, 821, 822, 823, 824, 825, 826]);
export const DELIVERY_EVENT_MESSAGES: Readonly<Record<number, string>> = Object.fromEntries(
  DELIVERY_EVENT_RULES.filter((r) => NEW_CODES.has(r.cStat)).map((r) => [r.cStat, r.message]),
);

/** P08: 91 (Ambiente Nacional) for the proof events, 92 (SVRS) for the failure events. */
const CORGAO: Readonly<Record<string, string>> = { [PROOF]: '91', [PROOF_CANCEL]: '91', [FAILURE]: '92', [FAILURE_CANCEL]: '92' };
/** Which event each cancellation cancels. */
const CANCELLED_BY: Readonly<Record<string, string>> = { [PROOF_CANCEL]: PROOF, [FAILURE_CANCEL]: FAILURE };
const HOUR = 3600_000;

const instant = (s: string | null) => (s ? Date.parse(s) : NaN);

/**
 * The earliest instant dhEmi can have: the key holds only its year and month (AAMM, positions 3-6), and the simulator
 * keeps no dhEmi, so 823/824 are answered only for a time before that month began anywhere (offsets reach +12:00,
 * tiposBasico TDateTimeUTC): never stricter than the authority, which compares with dhEmi itself.
 */
function earliestIssue(key: string): number {
  const yy = Number(key.slice(2, 4));
  const mm = Number(key.slice(4, 6));
  return Date.UTC(2000 + yy, mm - 1, 1) - 12 * HOUR;
}

/** The registered proofs (or failures) of a key that no registered cancellation names by protocol. */
export async function standingDeliveryEvents(key: string, tpEvento: string, ctx: SimContext): Promise<string[]> {
  const procs = await ctx.store.eventsOf(key);
  const of = (tp: string) => procs.filter((p) => textOf(p, 'tpEvento') === tp);
  const cancelTp = Object.entries(CANCELLED_BY).find(([, tp]) => tp === tpEvento)?.[0] ?? '';
  const cancelled = new Set(of(cancelTp).map((p) => textOf(p, 'nProtEvento')));
  return of(tpEvento)
    .map((p) => textOf(sliceAll(p, 'retEvento')[0]?.inner ?? '', 'nProt') ?? '')
    .filter((nProt) => nProt !== '' && !cancelled.has(nProt));
}

/** 826 (NT 2021.001 and 2023.005, 5.1): the NF-e cancellation while a proof or a failure of delivery stands. */
export async function deliveryBlocksCancellation(key: string, ctx: SimContext): Promise<boolean> {
  for (const tp of [PROOF, FAILURE]) if ((await standingDeliveryEvents(key, tp, ctx)).length > 0) return true;
  return false;
}

/** The first rule of DELIVERY_EVENT_RULES the event breaks (its cStat), or null. */
export async function deliveryEventRejection(evento: string, note: NoteRow | null, ctx: SimContext): Promise<number | null> {
  const key = textOf(evento, 'chNFe') ?? '';
  const tpEvento = textOf(evento, 'tpEvento') ?? '';
  if (textOf(evento, 'cOrgao') !== CORGAO[tpEvento]) return 250;
  if (key.slice(20, 22) !== '55') return 450;
  if (textOf(evento, 'cOrgaoAutor') !== key.slice(0, 2)) return 455;
  const dhEvento = instant(textOf(evento, 'dhEvento'));
  const delivered = instant(textOf(evento, tpEvento === PROOF ? 'dhEntrega' : 'dhTentativaEntrega'));
  const hashed = instant(textOf(evento, tpEvento === PROOF ? 'dhHashComprovante' : 'dhHashTentativaEntrega'));
  const isEvent = tpEvento === PROOF || tpEvento === FAILURE;
  if (isEvent && delivered > dhEvento) return 821;
  if (isEvent && hashed > dhEvento) return 822;
  if (!note) return 494;
  if (note.status !== 'authorized') return 580;
  if (isEvent && delivered < earliestIssue(key)) return 823;
  if (isEvent && hashed < earliestIssue(key)) return 824;
  if (isEvent) return (await standingDeliveryEvents(key, tpEvento, ctx)).length > 0 ? 825 : null;
  const cancels = CANCELLED_BY[tpEvento]!;
  const procs = (await ctx.store.eventsOf(key)).filter((p) => textOf(p, 'tpEvento') === cancels);
  if (procs.length === 0) return 459;
  const protocols = procs.map((p) => textOf(sliceAll(p, 'retEvento')[0]?.inner ?? '', 'nProt'));
  if (!protocols.includes(textOf(evento, 'nProtEvento'))) return 460;
  return null;
}
