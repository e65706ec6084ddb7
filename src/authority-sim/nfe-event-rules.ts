// Model-55 event rules of the simulated authority (docs/fiscal/events.md, docs/fiscal/nfe-model-55.md#cc-e, docs/fiscal/nfe-model-55.md#recipient-manifestation; codes from cstat_nfe.csv):
// the CC-e at the UF's event reception and the recipient's manifestation at the Ambiente Nacional.
import { sliceAll, textOf } from '../fiscal/sefaz/xml-slice.js';
import { NFE_NAMESPACE } from '../fiscal/xml/xml-text.js';
import type { SimContext } from './sim-context.js';
import type { NoteRow } from './sim-store.js';
import { checkSchema, tpAmbOf } from './xml-checks.js';

const HOUR = 3600_000;
/** CC-e: within 720 hours (30 days) of the authorization (NT 2011/004 as quoted in docs/fiscal/events.md). */
export const CCE_WINDOW_MS = 720 * HOUR;
/** Manifestation: within 180 days of the authorization (docs/fiscal/nfe-model-55.md#recipient-manifestation, NT 2020.001 as quoted). */
export const MANIFESTATION_WINDOW_MS = 180 * 24 * HOUR;
export const MANIFESTATIONS: ReadonlySet<string> = new Set(['210200', '210210', '210220', '210240']);
/** Conclusive manifestations: at most twice each per note, the last one counts (docs/fiscal/nfe-model-55.md#recipient-manifestation). */
const CONCLUSIVE = ['210200', '210220', '210240'];
/** The national environment's cOrgao (TCOrgaoIBGE 91, docs/fiscal/codes-and-tables.md). */
export const AN_CORGAO = '91';
/**
 * Reform events the issuer sends about its own NF-e (NT 2025.002-RTC 8.1; docs/fiscal/reform-events.md):
 * 112110 (NT 8.3), 112120 (8.15), 112130 (8.17), 112140 (8.18), 112150 (8.19). The NT (v1.31) gives
 * them no rejection codes of their own (none of these sections has a "Validação das Regras de Negócio"
 * table): the schema (493), the issuer as author (574) and the event Id not already registered (573)
 * are the general MOC rules. Whether one is refused on a cancelled note, on an NFC-e key, on a note of
 * the wrong kind (not an import note, not outbound, not a debit note 06) or for an nItem the note does
 * not have, and with which code, the NT does not say: not enforced.
 */
export const REFORM_ISSUER_EVENTS: ReadonlySet<string> = new Set(['112110', '112120', '112130', '112140', '112150']);

// Per-event detEvento schemas: the lot schema checks the envelope, these the event's own fields.
const DET_SCHEMAS: Record<string, string> = {
  '110110': 'e110110_v1.00.xsd',
  // NT 2025.002-RTC 8.14: Cancelamento de Evento (reform-event-cancel-rules.ts).
  '110001': 'e110001_v1.00.xsd',
  '112110': 'e112110_v1.00.xsd',
  // Shipped as "e112120_v1.00 .xsd" (a blank before the extension); the same file copied under this name.
  '112120': 'e112120_v1.00.xsd',
  '112130': 'e112130_v1.00.xsd',
  '112140': 'e112140_v1.00.xsd',
  '112150': 'e112150_v1.00.xsd',
  // NT 2014.001: the EPEC of an NF-e (docs/fiscal/epec.md).
  '110140': 'e110140NFe_v1.00.xsd',
  '110130': 'e110130_v1.00.xsd',
  '110131': 'e110131_v1.00.xsd',
  '110192': 'e110192_v1.00.xsd',
  '110193': 'e110193_v1.00.xsd',
  '210200': 'e210200_v1.00.xsd',
  '210210': 'e210210_v1.00.xsd',
  '210220': 'e210220_v1.00.xsd',
  '210240': 'e210240_v1.00.xsd',
};

/** Lot schemas of these events. CC-e takes the generic one: its own (envCCe) would answer 215 where the MOC answers 594 (nSeqEvento > 20). */
export const NFE_EVENT_LOT_SCHEMAS: Readonly<Record<string, string>> = {
  '210200': 'envConfRecebto_v1.00.xsd',
  '210210': 'envConfRecebto_v1.00.xsd',
  '210220': 'envConfRecebto_v1.00.xsd',
  '210240': 'envConfRecebto_v1.00.xsd',
  // docs/fiscal/delivery-events.md: each delivery event's own lot schema (NT 2021.001, NT 2023.005).
  '110130': 'envEventoEntregaNFe_v1.00.xsd',
  '110131': 'envEventoCancEntregaNFe_v1.00.xsd',
  '110192': 'envEventoInsucessoNFe_v1.00.xsd',
  '110193': 'envEventoCancInsucessoNFe_v1.00.xsd',
};

/** Every detEvento of the lot against its event's schema (215 otherwise). */
export function detEventosValid(payload: string, at: Date): boolean {
  for (const det of sliceAll(payload, 'detEvento')) {
    const tpEvento = textOf(payload.slice(0, det.start).split('<infEvento').pop() ?? '', 'tpEvento') ?? '';
    const schema = DET_SCHEMAS[tpEvento];
    // SP's NFC-e EPEC: its lot schema (eventoEPEC_v1.00.xsd) already checked this detEvento; e110140NFCe_v1.00.xsd
    // alone wants a dest the NT lets an unidentified consumer's sale leave out (docs/fiscal/offline-contingency.md#epec-sp).
    const key = textOf(payload.slice(0, det.start).split('<infEvento').pop() ?? '', 'chNFe') ?? '';
    if (!schema || (tpEvento === '110140' && key.slice(20, 22) === '65')) continue;
    const standalone = `<detEvento xmlns="${NFE_NAMESPACE}"` + det.outer.slice('<detEvento'.length);
    if (!checkSchema(standalone, schema, at, tpAmbOf(payload)).valid) return false;
  }
  return true;
}

const since = (note: NoteRow, at: Date) => at.getTime() - new Date(note.authorized_at).getTime();

/**
 * CC-e 110110 at the UF: 784 for an NFC-e (key positions 21-22), 580 unless the note is authorised
 * and not cancelled, 596 after 720 hours, 573 for a sequence already used, 594 for a sequence that
 * is not the next one (at most 20: leiauteCCe nSeqEvento).
 */
export async function correctionLetterRejection(evento: string, note: NoteRow | null, at: Date, ctx: SimContext): Promise<number | null> {
  const key = textOf(evento, 'chNFe') ?? '';
  if (key.slice(20, 22) === '65') return 784;
  if (textOf(evento, 'cOrgao') === AN_CORGAO) return 657;
  if (!note || note.status !== 'authorized') return 580;
  if (since(note, at) > CCE_WINDOW_MS) return 596;
  const seq = Number(textOf(evento, 'nSeqEvento'));
  const last = await ctx.store.dfe.lastSeq(key, '110110');
  if (seq <= last) return 573;
  if (seq > 20 || seq !== last + 1) return 594;
  return null;
}

/**
 * Recipient manifestation at the AN: cOrgao 91 (657), a known note (494), authored by its
 * recipient (575), not on a cancelled or denied note (650/651/580), within 180 days (596),
 * awareness only before a conclusive manifestation (655), each conclusive one at most twice: a
 * third necessarily carries a sequence above the two allowed (594).
 */
export async function manifestationRejection(evento: string, note: NoteRow | null, at: Date, ctx: SimContext): Promise<number | null> {
  const key = textOf(evento, 'chNFe') ?? '';
  const tpEvento = textOf(evento, 'tpEvento') ?? '';
  if (textOf(evento, 'cOrgao') !== AN_CORGAO) return 657;
  const received = await ctx.store.dfe.receivedNote(key);
  if (!note) return 494;
  const author = textOf(evento, 'CNPJ') ?? textOf(evento, 'CPF');
  if (!received || author !== received.recipient) return 575;
  if (note.status !== 'authorized') return tpEvento === '210210' ? 650 : tpEvento === '210220' ? 651 : 580;
  if (since(note, at) > MANIFESTATION_WINDOW_MS) return 596;
  if (tpEvento === '210210') {
    for (const t of CONCLUSIVE) if ((await ctx.store.dfe.eventCount(key, t)) > 0) return 655;
  } else if (CONCLUSIVE.includes(tpEvento) && (await ctx.store.dfe.eventCount(key, tpEvento)) >= 2) {
    return 594;
  }
  return null;
}
