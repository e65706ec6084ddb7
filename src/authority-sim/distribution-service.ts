// NFeDistribuicaoDFe of the simulated Ambiente Nacional (docs/fiscal/nfe-model-55.md#distribution-and-throttling): per interested CNPJ/CPF, the
// documents handed to it under an increasing NSU (received-documents.ts), at most 50 per answer,
// 137 when there is nothing after the NSU asked, and the consumption rule: after a 137, or after an
// answer that reached maxNSU, the next distNSU must wait one hour (656 before); asking beyond the
// documents handed so far is out of sequence (656), beyond maxNSU is 589. The hour runs on the
// simulator's clock (setClock).
import { gzipSync } from 'node:zlib';
import { padNsu } from '../fiscal/sefaz/distribution.js';
import { DISTRIBUTION_WAIT_MS } from '../fiscal/sefaz/distribution-pacing.js';
import { sliceElement, textOf } from '../fiscal/sefaz/xml-slice.js';
import { el, leaf, NFE_NAMESPACE } from '../fiscal/xml/xml-text.js';
import { authorityTime, VER_APLIC } from './answers.js';
import { motivo } from './cstat-messages.js';
import { fish, type SimContext } from './sim-context.js';
import { SCHEMA_PROC_NFE, SCHEMA_RES_NFE } from './received-documents.js';
import type { DfeDoc } from './sim-dfe-store.js';
import { checkSchema, isWellFormed } from './xml-checks.js';

/** retDistDFeInt: at most 50 docZip (retDistDFeInt_v1.01.xsd, loteDistDFeInt maxOccurs 50). */
export const MAX_DOCS_PER_ANSWER = 50;

const MOTIVOS: Record<number, string> = {
  // cstat_nfe.csv (MOC 7.0 4.4) texts, in the ASCII the AN answers with (sample retDistDFeInt_*).
  137: 'Nenhum documento localizado',
  138: 'Documento localizado',
  656: 'Rejeicao: Consumo Indevido',
};

export async function handleDistribution(payload: string, ctx: SimContext): Promise<string> {
  const at = ctx.now();
  const tpAmb = Number(fish(payload, 'tpAmb', '2'));
  const answer = (cStat: number, ultNSU: bigint, maxNSU: bigint, docs: DfeDoc[] = []) => {
    const lote = docs.length
      ? el('loteDistDFeInt', docs.map((d) => el('docZip', gzipSync(d.xml).toString('base64'), [['NSU', padNsu(d.nsu)], ['schema', d.schema]])).join(''))
      : '';
    return el(
      'retDistDFeInt',
      leaf('tpAmb', tpAmb === 1 ? 1 : 2) + leaf('verAplic', VER_APLIC) + leaf('cStat', cStat) + leaf('xMotivo', MOTIVOS[cStat] ?? motivo(cStat)) +
        leaf('dhResp', authorityTime(at)) + leaf('ultNSU', padNsu(ultNSU)) + leaf('maxNSU', padNsu(maxNSU)) + lote,
      [['xmlns', NFE_NAMESPACE], ['versao', '1.01']],
    );
  };
  if (!isWellFormed(payload)) return answer(243, 0n, 0n);
  if (ctx.scenario?.kind === 'unavailable') return answer(ctx.scenario.cStat, 0n, 0n);
  if (!checkSchema(payload, 'distDFeInt_v1.01.xsd', ctx.now()).valid) return answer(215, 0n, 0n);
  if (ctx.scenario?.kind === 'reject') return answer(ctx.scenario.cStat, 0n, 0n);
  const interested = textOf(payload, 'CNPJ') ?? textOf(payload, 'CPF') ?? '';
  const dfe = ctx.store.dfe;
  const maxNSU = await dfe.maxNsu(interested, tpAmb);

  const cons = sliceElement(payload, 'consNSU');
  if (cons) {
    const doc = await dfe.docAt(interested, tpAmb, BigInt(textOf(cons.inner, 'NSU') ?? '0'));
    return doc ? answer(138, BigInt(doc.nsu), maxNSU, [doc]) : answer(137, BigInt(textOf(cons.inner, 'NSU') ?? '0'), maxNSU);
  }
  const byKey = sliceElement(payload, 'consChNFe');
  if (byKey) {
    // The whole nfeProc when the party may have it, else the summary (docs/fiscal/nfe-model-55.md#recipient-manifestation, docs/fiscal/nfe-model-55.md#distribution-and-throttling).
    const held = await dfe.docsOfKey(interested, tpAmb, textOf(byKey.inner, 'chNFe') ?? '');
    const best = held.find((d) => d.schema === SCHEMA_PROC_NFE) ?? held.find((d) => d.schema === SCHEMA_RES_NFE);
    return best ? answer(138, BigInt(best.nsu), maxNSU, [best]) : answer(137, 0n, maxNSU);
  }

  const asked = BigInt(textOf(payload, 'ultNSU') ?? '0');
  const pacing = await dfe.pacing(interested, tpAmb);
  if ((pacing.waitUntil && at < pacing.waitUntil) || (asked > pacing.lastHanded && asked <= maxNSU)) {
    ctx.counters.rejections += 1;
    return answer(656, 0n, 0n);
  }
  if (asked > maxNSU) return answer(589, 0n, maxNSU);
  const docs = ctx.scenario?.kind === 'no-documents' ? [] : await dfe.docsAfter(interested, tpAmb, asked, MAX_DOCS_PER_ANSWER);
  const ultNSU = docs.length ? BigInt(docs[docs.length - 1]!.nsu) : asked;
  const caughtUp = ultNSU >= maxNSU || docs.length === 0;
  await dfe.setPacing(interested, tpAmb, {
    lastHanded: ultNSU > pacing.lastHanded ? ultNSU : pacing.lastHanded,
    waitUntil: caughtUp ? new Date(at.getTime() + DISTRIBUTION_WAIT_MS) : null,
  });
  return docs.length ? answer(138, ultNSU, maxNSU, docs) : answer(137, ultNSU, maxNSU);
}
