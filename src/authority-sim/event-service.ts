import { sliceAll, textOf } from '../fiscal/sefaz/xml-slice.js';
import { NFE_NAMESPACE } from '../fiscal/xml/xml-text.js';
import { authorityTime, procEventoNFe, retEnvEvento, retEvento, type EventAnswerFields } from './answers.js';
import { motivo } from './cstat-messages.js';
import { checkEnvelopedSignatureOffLoop } from './signature-check.js';
import { signerCertificateRejection } from './certificate-rules.js';
import { fish, type SimContext } from './sim-context.js';
import { checkSchema, isWellFormed } from './xml-checks.js';
import { correctionLetterRejection, detEventosValid, manifestationRejection, MANIFESTATIONS, NFE_EVENT_LOT_SCHEMAS, REFORM_ISSUER_EVENTS } from './nfe-event-rules.js';
import { distributeIssuerEvent, unlockFullNote } from './received-documents.js';
import { EVENT_CANCELLATION, eventCancellationRejection } from './reform-event-cancel-rules.js';
import { deliveryBlocksCancellation, deliveryEventRejection, DELIVERY_EVENTS } from './delivery-event-rules.js';
import { EPEC, epecRejection } from './epec-rules.js';

const CANCELLATIONS = new Set(['110111', '110112']);
// Per-event schemas: cancellation and cancellation by substitution are validated in full.
const SCHEMA_BY_EVENT: Record<string, string> = {
  '110111': 'envEventoCancNFe_v1.00.xsd',
  '110112': 'envEventoCancSubst_v1.00.xsd',
  // docs/fiscal/epec.md: the EPEC lot (envEPEC_v1.00.xsd, NT 2014.001 3.2).
  [EPEC]: 'envEPEC_v1.00.xsd',
  ...NFE_EVENT_LOT_SCHEMAS,
};

/** An NFC-e key (model 65, key positions 21-22). */
const isNfceKey = (key: string) => key.slice(20, 22) === '65';

/**
 * The lot schema of an event type. SP's NFC-e EPEC has its own lot, eventoEPEC_v1.00.xsd (vNF/vICMS in detEvento,
 * no vST, dest optional: docs/fiscal/offline-contingency.md#epec-sp), which also defines its detEvento in full.
 */
function lotSchemaOf(tpEvento: string, payload: string): string {
  if (tpEvento === EPEC && isNfceKey(textOf(payload, 'chNFe') ?? '')) return 'eventoEPEC_v1.00.xsd';
  return SCHEMA_BY_EVENT[tpEvento] ?? 'envEvento_v1.00.xsd';
}

/**
 * Cancellation windows (docs/fiscal/events.md): NFC-e 30 minutes (Ajuste SINIEF 19/16 cl. 15), NFC-e by
 * substitution 168 hours (cl. 15-A), NF-e 24 hours (Ajuste SINIEF 07/05). Later: 501.
 */
export function cancellationWindowMs(model: number, tpEvento: string): number {
  if (model === 65) return tpEvento === '110112' ? 168 * 3600_000 : 30 * 60_000;
  return 24 * 3600_000;
}

// The event types this authority registers, each in its version 1.00 (NT 2011/004 CC-e, cancellation,
// NT 2018.005 cancellation by substitution, NT 2012/002 manifestation, NT 2025.002-RTC issuer events): others get 491.
// NT 2021.001 and NT 2023.005 delivery events (delivery-event-rules.ts); NT 2025.002-RTC 8.14 cancellation of an event;
// NT 2014.001 EPEC at the Ambiente Nacional (epec-rules.ts).
const KNOWN_EVENTS = new Set(['110110', '110111', '110112', ...MANIFESTATIONS, ...REFORM_ISSUER_EVENTS, ...DELIVERY_EVENTS, EVENT_CANCELLATION, EPEC]);
const EVENT_VERSION = '1.00';
/** The one event an SVC registers (NT 2013.007 04.3): the cancellation of an NF-e it authorized. */
const SVC_EVENT = '110111';

/**
 * MOC 4.1 D04 (491) an event type this web service does not register, D05 (492) another verEvento. An SVC registers
 * the cancellation (110111) of the notes it authorized and nothing else: NT 2013.007 v1.03 04.3 and 04.4 (D04, 491
 * "tpEvento informado inválido para a SVC": no CC-e, manifestation or other event there).
 */
function eventTypeRejection(payload: string, atSvc: boolean): number | null {
  for (const e of sliceAll(payload, 'evento')) {
    const tpEvento = textOf(e.inner, 'tpEvento') ?? '';
    if (!KNOWN_EVENTS.has(tpEvento) || (atSvc && tpEvento !== SVC_EVENT)) return 491;
    if ((textOf(e.inner, 'verEvento') ?? '') !== EVENT_VERSION) return 492;
  }
  return null;
}

/** NFeRecepcaoEvento4: envEvento -> retEnvEvento (128 with one retEvento per event). */
export async function handleEvent(payload: string, ctx: SimContext): Promise<string> {
  const head = {
    idLote: textOf(payload, 'idLote') ?? '0',
    tpAmb: Number(fish(payload, 'tpAmb', '2')),
    cOrgao: fish(payload, 'cOrgao', '35'),
  };
  const lot = (cStat: number, events: string[] = []) => retEnvEvento({ ...head, cStat, xMotivo: motivo(cStat) }, events);
  if (!/^[0-9]{1,15}$/.test(head.idLote)) head.idLote = '0';
  if (!isWellFormed(payload)) return lot(243);
  if (ctx.scenario?.kind === 'unavailable') return lot(ctx.scenario.cStat);
  // MOC 4.1 D01 (215): the lot's own schema (detEvento is any content there), then DB D04-D06 per event.
  const arrived = ctx.now();
  if (!checkSchema(payload, 'envEvento_v1.00.xsd', arrived).valid) return lot(215);
  const eventRule = eventTypeRejection(payload, !!ctx.authorizer && ctx.authorizer !== 'state');
  if (eventRule) return lot(eventRule);
  const tpEvento = textOf(payload, 'tpEvento') ?? '';
  // D06 (493): the event's own schema (its detEvento).
  if (!checkSchema(payload, lotSchemaOf(tpEvento, payload), arrived).valid || !detEventosValid(payload, arrived)) return lot(493);
  const answers: string[] = [];
  for (const e of sliceAll(payload, 'evento')) {
    const startTag = e.outer.slice(0, e.outer.indexOf('>'));
    const evento = /\sxmlns\s*=/.test(startTag) ? e.outer : `<evento xmlns="${NFE_NAMESPACE}"` + e.outer.slice(7);
    answers.push(await registerOne(evento, ctx));
  }
  return lot(128, answers);
}

async function registerOne(evento: string, ctx: SimContext): Promise<string> {
  const at = ctx.now();
  const key = textOf(evento, 'chNFe') ?? '';
  const tpEvento = textOf(evento, 'tpEvento') ?? '';
  const nSeq = textOf(evento, 'nSeqEvento') ?? '1';
  const base: EventAnswerFields = {
    tpAmb: Number(textOf(evento, 'tpAmb') ?? 2),
    cOrgao: textOf(evento, 'cOrgao') ?? '35',
    cStat: 0,
    xMotivo: '',
    accessKey: key,
    tpEvento,
    // retEvento xEvento is TString of 5-60 characters (leiauteEvento_v1.00.xsd), while some reform
    // descEvento values are longer (112110: 85, 112130: 82): the answer carries its first 60 characters,
    // our reading (docs/fiscal/reform-events.md), the layout allowing no more.
    // The EPEC's descEvento "EPEC" is 4 characters; its answer says "EPEC autorizado" (NT 2014.001 3.3 R20), once registered.
    xEvento: tpEvento === EPEC ? null : textOf(evento, 'descEvento')?.slice(0, 60).trimEnd() ?? null,
    nSeqEvento: nSeq,
    // The EPEC's answer (retEnvEPEC_v1.00.xsd, NT 2014.001 3.3 R22) carries cOrgaoAutor, which its schema requires.
    cOrgaoAutor: tpEvento === '110192' || tpEvento === '110193' || tpEvento === EPEC ? textOf(evento, 'cOrgaoAutor') : null,
    dhRegEvento: authorityTime(at),
    nProt: null,
  };
  const rejected = (cStat: number, pending?: readonly string[]) => {
    ctx.counters.rejections += 1;
    return retEvento({ ...base, cStat, xMotivo: motivo(cStat), pending }, ctx.signingKey);
  };
  const signature = await checkEnvelopedSignatureOffLoop(evento, 'infEvento');
  if (!signature.ok) return rejected(signature.cStat);
  // MOC 4.1 group E: the signing certificate (E01 290, E02 291).
  const certificate = signerCertificateRejection(signature.certificate, at);
  if (certificate) return rejected(certificate.cStat);
  const eventId = /<infEvento[^>]*\sId="([^"]+)"/.exec(evento)?.[1] ?? '';
  if (await ctx.store.eventExists(eventId)) return rejected(573);
  const note = await ctx.store.note(key);
  // 574: an issuer's event (cancellation, CC-e) is authored by the issuer, whose CNPJ is in the key (positions 7-20).
  // 110001 is authored by whoever authored the event it cancels (NT 2025.002-RTC 8.14): its rule 1P10-10 (1113) instead.
  // An EPEC comes before its note exists: its author is checked against the key all the same (NT 2014.001 3.8 P12-44).
  if (!MANIFESTATIONS.has(tpEvento) && tpEvento !== EVENT_CANCELLATION && (note || tpEvento === EPEC) && textOf(evento, 'CNPJ') !== key.slice(6, 20) && textOf(evento, 'CPF') === null) return rejected(574);
  const nfeRule = MANIFESTATIONS.has(tpEvento)
    ? await manifestationRejection(evento, note, at, ctx)
    : tpEvento === '110110' ? await correctionLetterRejection(evento, note, at, ctx)
    : DELIVERY_EVENTS.has(tpEvento) ? await deliveryEventRejection(evento, note, ctx)
    : tpEvento === EVENT_CANCELLATION ? await eventCancellationRejection(evento, ctx)
    : null;
  if (nfeRule) return rejected(nfeRule);
  // NT 2014.001 3.9 (*4) and 3.3 R32: a 142 lists the keys of up to 50 EPEC pending conciliation (chNFePend). The AN's
  // EPEC rules are the NF-e's; SP's NFC-e EPEC rules (NT nº 3) are not played (docs/fiscal/offline-contingency.md).
  const epecRule = tpEvento === EPEC && !isNfceKey(key) ? await epecRejection(evento, at, ctx) : null;
  if (epecRule) return rejected(epecRule.cStat, epecRule.pending);
  if (CANCELLATIONS.has(tpEvento)) {
    if (note?.status === 'canceled') return rejected(420);
    if (!note || note.status !== 'authorized') return rejected(580);
    if ((textOf(evento, 'nProt') ?? '') !== note.n_prot) return rejected(222);
    if (at.getTime() - new Date(note.authorized_at).getTime() > cancellationWindowMs(note.model, tpEvento)) return rejected(501);
    // docs/fiscal/nfe-model-55.md#recipient-manifestation: once the recipient confirmed the operation (210200) the issuer can no longer cancel.
    if ((await ctx.store.dfe.eventCount(key, '210200')) > 0) return rejected(221);
    // docs/fiscal/delivery-events.md: NT 2021.001 / 2023.005 5.1 (826), a proof or a failure of delivery not cancelled.
    if (await deliveryBlocksCancellation(key, ctx)) return rejected(826);
  } else if (tpEvento !== EPEC && (!note || note.status === 'denied')) {
    return rejected(580);
  }
  if (ctx.scenario?.kind === 'reject') return rejected(ctx.scenario.cStat);

  // TProt carries the authoriser's code: the AN (91) registers the manifestations.
  // NT 2014.001 3.1 (docs/fiscal/epec.md): the EPEC's protocol is 891 followed by twelve digits.
  // SP's NFC-e EPEC is the state's own service: its protocol is numbered as the state's other events.
  const anEpec = tpEvento === EPEC && !isNfceKey(key);
  const nProt = await ctx.store.nextProtocol(MANIFESTATIONS.has(tpEvento) || anEpec ? '91' : DELIVERY_EVENTS.has(tpEvento) ? textOf(evento, 'cOrgao') ?? '91' : key.slice(0, 2), at, anEpec ? '8' : '1');
  // NT 2014.001 3.10: an EPEC is registered before its NF-e exists, so never linked to it (136, not 135); SP's NFC-e
  // EPEC answers 136 too (sped-nfe's SP EPEC guide, docs/fiscal/offline-contingency.md#epec-sp).
  const registered = tpEvento === EPEC ? 136 : 135;
  const xEvento = tpEvento === EPEC ? 'EPEC autorizado' : base.xEvento;
  const answer = retEvento({ ...base, cStat: registered, xMotivo: motivo(registered), nProt, xEvento }, ctx.signingKey);
  const stored = await ctx.store.insertEvent({
    eventId,
    accessKey: key,
    tpEvento,
    nSeq: Number(nSeq),
    nProt,
    at,
    procXml: procEventoNFe(evento, answer),
    cancels: CANCELLATIONS.has(tpEvento),
  });
  if (!stored) return rejected(573);
  ctx.counters.events += 1;
  // The Ambiente Nacional's side: the recipient's 210200/210210 unlocks the whole note; the issuer's events reach the recipient.
  if (tpEvento === '210200' || tpEvento === '210210') await unlockFullNote(ctx.store, key);
  else if (!MANIFESTATIONS.has(tpEvento)) await distributeIssuerEvent(ctx.store, evento, { nProt, dhRegEvento: base.dhRegEvento, xEvento: xEvento ?? '' });
  return answer;
}
