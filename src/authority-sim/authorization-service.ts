import { randomInt } from 'node:crypto';
import { textOf } from '../fiscal/sefaz/xml-slice.js';
import { authorityTime, protNFe, retConsReciNFe, retEnviNFe, type ProtocolFields } from './answers.js';
import { motivo, motivoWith } from './cstat-messages.js';
import { epecAuthorizationRejection } from './epec-rules.js';
import { nfeElementsOf, nfeFacts } from './nfe-facts.js';
import { identityRejection, type Rejection } from './nfe-rules.js';
import { authorizationRuleRejection } from './authorization-rules.js';
import { lotRejection, lotUfRejection, messageRejection } from './ide-rules.js';
import { signerCertificateRejection } from './certificate-rules.js';
import { checkEnvelopedSignatureOffLoop } from './signature-check.js';
import { fish, type SimContext } from './sim-context.js';
import type { NumberedNote } from './sim-store.js';
import { checkNfeLotSchema, checkSchema, isWellFormed } from './xml-checks.js';
import { recordReceivedNote } from './received-documents.js';
import { scenarioDenial } from './scenario-denial.js';
import { referenceRejection } from './reference-rules.js';
import { svcRejection } from './svc-rules.js';

const CONTINGENCY_DEADLINE_MS = 24 * 3600_000;

/** NFeAutorizacao4: enviNFe -> retEnviNFe. One NF-e with indSinc=1 is answered synchronously (104). */
export async function handleAuthorization(payload: string, ctx: SimContext): Promise<string> {
  const at = ctx.now();
  const head = { tpAmb: Number(fish(payload, 'tpAmb', '2')), cUF: fish(payload, 'cUF', '35'), dhRecbto: authorityTime(at) };
  const lot = (cStat: number, body: { protNFe?: string; nRec?: string } = {}, xMotivo = motivo(cStat)) =>
    retEnviNFe({ ...head, cStat, xMotivo }, body);
  // MOC B01 (214): the size comes before anything is read.
  const message = messageRejection(payload);
  if (message?.cStat === 214) return count(ctx, lot(214));
  // A document the XSD accepts is well-formed: the separate 243 check runs only for one it refuses.
  // Each NF-e against the package in force on its dhEmi (fiscal/xml/xsd/schema-packages.ts).
  const schema = checkNfeLotSchema(payload);
  if (!schema.valid && !isWellFormed(payload)) return count(ctx, lot(243));
  if (ctx.scenario?.kind === 'unavailable') return lot(ctx.scenario.cStat);
  // At an SVC, MOC B05 (410) a state it does not serve, then NT 2013.007 C03.2 (114) a state that has not activated it
  // (svc-rules.ts): the lot is refused whole, before its notes are read.
  const svcRefused = ctx.authorizer && ctx.authorizer !== 'state' ? svcRejection(head.cUF, ctx.authorizer, ctx.svcActive, 'authorization') : null;
  if (svcRefused) return count(ctx, lot(svcRefused.cStat, {}, svcRefused.xMotivo));
  // MOC B06 (239): the version of the message, before its schema.
  if (message) return count(ctx, lot(message.cStat));
  if (!schema.valid) {
    // 225 when an NF-e of the lot breaks its schema, 215 when the lot envelope itself does.
    const inNfe = schema.errors.some((e) => e.path?.startsWith('/enviNFe/NFe'));
    return count(ctx, lot(inNfe ? 225 : 215));
  }
  const nfes = nfeElementsOf(payload);
  // MOC GAP03a-1 (764), B06-20 (765): the lot as a whole.
  const lotRefused = lotRejection(payload, nfes);
  if (lotRefused) return count(ctx, lot(lotRefused.cStat));
  const protocols: string[] = [];
  const lotCuf = nfeFacts(nfes[0]!).cUF;
  for (const nfe of nfes) protocols.push(await authorizeOne(nfe, ctx, at, lotCuf));
  // MOC: synchronous processing only for a lot of one NF-e; bigger lots get a receipt (103).
  // Scenario `async`: the authority processes even a one-note synchronous lot asynchronously, as a
  // state without synchronous processing does (the client must then poll the receipt).
  const synchronous = textOf(payload, 'indSinc') === '1' && ctx.scenario?.kind !== 'async';
  if (synchronous && protocols.length === 1) return lot(104, { protNFe: protocols[0]! });
  const nRec = head.cUF + String(randomInt(1e9)).padStart(13, '0');
  await ctx.store.saveReceipt(nRec, protocols.join(''));
  return lot(103, { nRec });
}

/** NFeRetAutorizacao4: consReciNFe -> retConsReciNFe (104 with the protocols, 106 unknown receipt). */
export async function handleReceipt(payload: string, ctx: SimContext): Promise<string> {
  const head = { tpAmb: Number(fish(payload, 'tpAmb', '2')), cUF: '35', dhRecbto: authorityTime(ctx.now()) };
  const nRec = textOf(payload, 'nRec') ?? '';
  const answer = (cStat: number, prot: string | null = null) =>
    retConsReciNFe({ ...head, nRec: /^[0-9]{15}$/.test(nRec) ? nRec : '000000000000000', cStat, xMotivo: motivo(cStat) }, prot);
  if (!isWellFormed(payload)) return answer(243);
  if (ctx.scenario?.kind === 'unavailable') return answer(ctx.scenario.cStat);
  if (!checkSchema(payload, 'consReciNFe_v4.00.xsd', ctx.now()).valid) return answer(215);
  const prot = await ctx.store.receipt(nRec);
  return prot === null ? answer(106) : answer(104, prot);
}

function count(ctx: SimContext, answer: string): string {
  ctx.counters.rejections += 1;
  return answer;
}

async function authorizeOne(nfeXml: string, ctx: SimContext, at: Date, lotCuf: string): Promise<string> {
  const facts = nfeFacts(nfeXml);
  const fields = (cStat: number, xMotivo: string, nProt: string | null, digVal: string | null): ProtocolFields => ({
    tpAmb: Number(facts.tpAmb) || 2,
    accessKey: /^[0-9A-Z]{44}$/.test(facts.accessKeyFromId) ? facts.accessKeyFromId : '0'.repeat(44),
    dhRecbto: authorityTime(at),
    nProt,
    digVal,
    cStat,
    xMotivo,
  });
  const rejected = (r: Rejection, digVal: string | null = null) => {
    ctx.counters.rejections += 1;
    return protNFe(fields(r.cStat, r.xMotivo, null, digVal), ctx.signingKey);
  };

  const signature = await checkEnvelopedSignatureOffLoop(nfeXml, 'infNFe');
  if (!signature.ok) return rejected({ cStat: signature.cStat, xMotivo: motivo(signature.cStat), detail: signature.reason });
  const digVal = signature.digestValue;
  // MOC 4.1 group E (the signing certificate) before F03 and the content.
  const identity = signerCertificateRejection(signature.certificate, at) ?? identityRejection(facts, signature.certificate) ?? lotUfRejection(facts, lotCuf);
  if (identity) return rejected(identity, digVal);
  const cnpj = facts.emitCnpj ?? facts.emitCpf ?? '';
  const numbered = {
    access_key: facts.accessKeyFromId,
    cnpj,
    model: Number(facts.mod),
    serie: Number(facts.serie),
    nnf: Number(facts.nNF),
    tp_amb: Number(facts.tpAmb),
  };
  const cscs = await ctx.store.cscs(cnpj, Number(facts.tpAmb));
  const scenario = ctx.scenario;
  const refused =
    authorizationRuleRejection(facts, { now: at, signer: signature.certificate, digestValue: digVal, cscs, authorizer: ctx.authorizer ?? 'state' }) ??
    (scenario?.kind === 'reject' ? { cStat: scenario.cStat, xMotivo: motivo(scenario.cStat), detail: 'scenario' } : null);
  // MOC order: the duplicate rules (204/539/206) speak before the content rules. A clean note learns
  // of a duplicate from the claim below (one round trip); a refused one has to ask.
  if (refused) return rejected((await obstacleRejection(numbered, ctx)) ?? refused, digVal);
  // MOC group 2A (docs/fiscal/epec.md): an EPEC registered for this number binds the note to it.
  const epec = await epecAuthorizationRejection(nfeXml, facts, ctx);
  if (epec) return rejected((await obstacleRejection(numbered, ctx)) ?? { cStat: epec.cStat, xMotivo: motivoWith(epec.cStat, epec.facts), detail: 'EPEC' }, digVal);
  // MOC group 3A after groups 2 and 3: a complementary NF-e's referenced note in the records.
  const reference = await referenceRejection(facts, (key) => ctx.store.note(key));
  if (reference) return rejected((await obstacleRejection(numbered, ctx)) ?? reference, digVal);

  const denial = scenarioDenial(scenario, facts);
  const denied = denial !== null;
  // docs/fiscal/offline-contingency.md: an offline NFC-e transmitted after the deadline (24 h from issue, PE's reading) is
  // still authorized, as 150 "fora de prazo".
  const late = facts.tpEmis === '9' && at.getTime() - Date.parse(facts.dhEmi) > CONTINGENCY_DEADLINE_MS;
  const cStat = denial ?? (late ? 150 : 100);
  const nProt = await ctx.store.nextProtocol(facts.cUF, at);
  const prot = protNFe(fields(cStat, motivo(cStat), nProt, digVal), ctx.signingKey);
  const claimed = await ctx.store.claimNote({
    ...numbered,
    tp_emis: Number(facts.tpEmis),
    fin_nfe: Number(facts.finNFe) || null,
    status: denied ? 'denied' : 'authorized',
    c_stat: cStat,
    n_prot: nProt,
    authorized_at: at,
    prot_xml: prot,
  });
  if (!claimed) {
    // The key or the number was taken (before, or by a concurrent request), or the number was voided.
    const obstacle = await obstacleRejection(numbered, ctx);
    return rejected(obstacle ?? { cStat: 204, xMotivo: motivo(204), detail: 'concurrent duplicate' }, digVal);
  }
  if (denied) ctx.counters.denials += 1;
  else ctx.counters.authorizations += 1;
  // An NF-e naming a recipient becomes downloadable by it at the Ambiente Nacional (received-documents.ts).
  if (!denied && facts.mod === '55') await recordReceivedNote(ctx.store, { nfeXml, protNFeXml: prot, tpAmb: Number(facts.tpAmb), authorizedAt: at });
  return prot;
}

/** 204 same key (with the first protocol), 205 denied key, 218 canceled key, 539 same number with another key, 206 voided number. */
async function obstacleRejection(n: NumberedNote, ctx: SimContext): Promise<Rejection | null> {
  const o = await ctx.store.obstacle(n);
  if (!o) return null;
  if (o.kind === 'voided') return { cStat: 206, xMotivo: motivo(206), detail: 'number voided' };
  const facts = { nProt: o.note.n_prot, dhAut: authorityTime(o.note.authorized_at) };
  if (o.kind === 'same-number') {
    return { cStat: 539, xMotivo: motivoWith(539, { chNFe: o.note.access_key, ...facts }), detail: 'number used by another key' };
  }
  if (o.note.status === 'denied') return { cStat: 205, xMotivo: motivoWith(205, facts), detail: 'key denied before' };
  // MOC 2B08-30 (218): the note of this key (model, UF, CNPJ, series, number) was canceled.
  if (o.note.status === 'canceled') return { cStat: 218, xMotivo: motivo(218), detail: 'key canceled before' };
  return { cStat: 204, xMotivo: motivoWith(204, facts), detail: 'key authorized before' };
}
