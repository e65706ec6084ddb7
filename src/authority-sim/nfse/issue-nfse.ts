// POST /SefinNacional/nfse {dpsXmlGZipB64} (docs/fiscal/nfse-national.md#calls): reception rules, DPS rules, one NFS-e per DPS
// Id (E0014), then the authorization: nNFSe per provider, cNum, the 50-digit key (docs/fiscal/nfse-national.md#access-key), the
// signed NFS-e, its distribution to the parties, and 105102 on the replaced note for a substitution.
import { randomInt } from 'node:crypto';
import { nfseKeyCheckDigit } from '../../fiscal/xml/nfse/dps-id.js';
import type { DpsSignatureProfileName } from '../../fiscal/xml/nfse/sign-dps.js';
import { checkDocument } from './document-checks.js';
import { dpsFacts, type DpsFacts } from './dps-facts.js';
import { checkDpsContent, checkDpsSignature } from './dps-rules.js';
import { checkDpsRules } from './dps-party-rules.js';
import { checkDpsService } from './dps-service-rules.js';
import { checkDpsValues } from './dps-value-rules.js';
import { checkDpsIbsCbs } from './dps-ibscbs-rules.js';
import { checkForeignTrade } from './foreign-trade-rules.js';
import type { JsonReply, NfseCaller, NfseSimContext } from './nfse-context.js';
import { actorsOf } from './nfse-store.js';
import { answerHead, brasilia, decodeXmlField, gzipB64, NfseRefusal, parseJsonObject } from './nfse-wire.js';
import { lockReplaced, registerSubstitution } from './substitution.js';
import { writeNfse } from './write-nfse.js';

/** What a scenario asks of this request (scenario.ts): a refused profile or a forced rejection. */
export interface IssueFaults {
  refuseProfile?: DpsSignatureProfileName | undefined;
  rejectCode?: string | undefined;
}

export async function issueNfse(body: string, ctx: NfseSimContext, caller: NfseCaller, faults: IssueFaults = {}): Promise<JsonReply> {
  let idDPS = '';
  let tpAmb: 1 | 2 = 2;
  try {
    const xml = decodeXmlField(parseJsonObject(body).dpsXmlGZipB64);
    const checked = checkDocument(xml, 'DPS', 'DPS_v1.01.xsd');
    const facts = dpsFacts(checked.root);
    idDPS = facts.id;
    tpAmb = facts.tpAmb;
    if (faults.rejectCode) throw new NfseRefusal(faults.rejectCode, 'scenario reject');
    const now = ctx.now();
    checkDpsSignature(xml, checked.root, facts, faults.refuseProfile ?? null, now);
    checkDpsContent(facts, checked.root);
    checkDpsRules(checked.root, facts, now);
    checkDpsService(checked.root, facts);
    checkDpsValues(checked.root, facts);
    checkDpsIbsCbs(checked.root, facts);
    checkForeignTrade(checked.root);
    // Anexo I E0014: series + number + cLocEmi + CNPJ/CPF are the DPS Id (docs/fiscal/nfse-national.md#dps).
    const previous = await ctx.store.byDps(facts.id);
    if (previous) throw new NfseRefusal('E0014', `NFS-e ${previous.access_key}`);
    const issued = await authorize(ctx, facts, checked.text, caller);
    ctx.counters.nfseAuthorizations += 1;
    return {
      status: 201,
      body: { ...answerHead(tpAmb, issued.at), idDps: facts.id, chaveAcesso: issued.key, nfseXmlGZipB64: gzipB64(issued.xml), alertas: [] },
    };
  } catch (err) {
    if (!(err instanceof NfseRefusal)) throw err;
    ctx.counters.nfseRejections += 1;
    // NFSePostResponseErro spells the Id idDPS (docs/fiscal/nfse-national.md#calls).
    return { status: err.status, body: { ...answerHead(tpAmb, ctx.now()), idDPS, erros: [err.item] } };
  }
}

/** The 50-digit key: cMun + ambGer 2 + inscription type + CPF/CNPJ(14) + nNFSe(13) + AAMM + cNum(9) + DV (docs/fiscal/nfse-national.md#access-key). */
export function nfseKey(f: DpsFacts, nNFSe: number, aamm: string, cNum: string): string {
  const taxId = (f.prest.CNPJ ?? f.prest.CPF ?? '').padStart(14, '0');
  const body = f.cLocEmi + '2' + (f.prest.CNPJ ? '2' : '1') + taxId + String(nNFSe).padStart(13, '0') + aamm + cNum;
  return body + nfseKeyCheckDigit(body);
}

async function authorize(ctx: NfseSimContext, facts: DpsFacts, dpsText: string, caller: NfseCaller): Promise<{ key: string; xml: string; at: Date }> {
  const at = ctx.now();
  const taxId = facts.prest.CNPJ ?? facts.prest.CPF ?? '';
  // AAMM of the NFS-e's generation (its dhProc, Brasília time) - the RJ sample's key holds 2512 for dhProc 2025-12-30.
  const local = brasilia(at);
  const aamm = local.slice(2, 4) + local.slice(5, 7);
  return ctx.store.transaction(async (tx) => {
    const replaced = facts.subst ? await lockReplaced(ctx.store, tx, { ...facts, subst: facts.subst }) : null;
    const nNFSe = await ctx.store.nextNumber(tx, taxId);
    const nDFSe = await ctx.store.nextNsu(tx);
    const key = nfseKey(facts, nNFSe, aamm, String(randomInt(0, 1_000_000_000)).padStart(9, '0'));
    const provider = ctx.taxpayer?.(taxId);
    const xml = writeNfse({ key, nNFSe, nDFSe, processedAt: at, providerName: caller.name, provider, facts, dpsText }, ctx.signingKey);
    const inserted = await ctx.store.insertNfse(tx, { accessKey: key, dpsId: facts.id, taxId, tpAmb: facts.tpAmb, nNFSe, nfseXml: xml, tomaId: facts.tomaId, intermId: facts.intermId, processedAt: at });
    if (!inserted) throw new NfseRefusal('E0014', 'an NFS-e came from this DPS meanwhile');
    const parties = actorsOf({ tax_id: taxId, toma_id: facts.tomaId ?? null, interm_id: facts.intermId ?? null });
    await ctx.store.distribute(tx, nDFSe, { accessKey: key, kind: 'NFSE', parties, xml, at });
    if (replaced && facts.subst) await registerSubstitution(ctx.store, tx, replaced, { key, facts: { ...facts, subst: facts.subst }, at }, ctx.signingKey);
    return { key, xml, at };
  });
}
