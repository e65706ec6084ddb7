import { textOf } from '../fiscal/sefaz/xml-slice.js';
import { authorityTime, retInutNFe, type InutAnswerFields } from './answers.js';
import { motivo } from './cstat-messages.js';
import { checkEnvelopedSignatureOffLoop } from './signature-check.js';
import { signerCertificateRejection } from './certificate-rules.js';
import { fish, type SimContext } from './sim-context.js';
import { checkSchema, isWellFormed } from './xml-checks.js';

/**
 * NFeInutilizacao4: inutNFe -> retInutNFe. 102 voided; 563 the same range was voided already,
 * 256 a number of the range was voided, 241 a number of the range was used (docs/fiscal/inutilizacao.md).
 */
export async function handleInutilization(payload: string, ctx: SimContext): Promise<string> {
  const at = ctx.now();
  const t = (n: string) => textOf(payload, n) ?? undefined;
  const base: InutAnswerFields = {
    tpAmb: Number(fish(payload, 'tpAmb', '2')),
    cStat: 0,
    xMotivo: '',
    cUF: fish(payload, 'cUF', '35'),
    dhRecbto: authorityTime(at),
    nProt: null,
  };
  const answer = (cStat: number) => {
    if (cStat !== 102) ctx.counters.rejections += 1;
    return retInutNFe({ ...base, cStat, xMotivo: motivo(cStat) }, ctx.signingKey);
  };
  if (!isWellFormed(payload)) return answer(243);
  if (ctx.scenario?.kind === 'unavailable') return answer(ctx.scenario.cStat);
  if (!checkSchema(payload, 'inutNFe_v4.00.xsd', at).valid) return answer(215);
  const signature = await checkEnvelopedSignatureOffLoop(payload, 'infInut');
  if (!signature.ok) return answer(signature.cStat);
  // MOC 4.1 group E: the signing certificate (E01 290, E02 291).
  const certificate = signerCertificateRejection(signature.certificate, at);
  if (certificate) return answer(certificate.cStat);
  Object.assign(base, { ano: t('ano'), cnpj: t('CNPJ'), mod: t('mod'), serie: t('serie'), nNFIni: t('nNFIni'), nNFFin: t('nNFFin') });
  const cnpj = t('CNPJ') ?? '';
  const [model, serie, from, to] = [Number(t('mod')), Number(t('serie')), Number(t('nNFIni')), Number(t('nNFFin'))];
  const tpAmb = base.tpAmb;
  const voided = await ctx.store.voidsOverlapping(cnpj, model, serie, tpAmb, from, to);
  if (voided.some((v) => v.n_ini === from && v.n_fin === to)) return answer(563);
  if (voided.length > 0) return answer(256);
  if ((await ctx.store.notesInRange(cnpj, model, serie, tpAmb, from, to)) > 0) return answer(241);
  if (ctx.scenario?.kind === 'reject') return answer(ctx.scenario.cStat);
  const nProt = await ctx.store.nextProtocol(base.cUF, at);
  const ret = retInutNFe({ ...base, cStat: 102, xMotivo: motivo(102), nProt }, ctx.signingKey);
  const inutId = /<infInut[^>]*\sId="([^"]+)"/.exec(payload)?.[1] ?? '';
  if (!(await ctx.store.insertVoid({ inutId, cnpj, model, serie, tpAmb, from, to, nProt, retXml: ret }))) return answer(563);
  ctx.counters.voids += 1;
  return ret;
}
