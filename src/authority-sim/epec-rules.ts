// The EPEC (110140) as the simulated authorities play it (docs/fiscal/epec.md). At the Ambiente Nacional's
// event reception: NT 2014.001 v1.30 section 3.8 (P08-10, the event's cOrgao) and section 3.9 (the rules
// specific to the EPEC), in the order the NT lists them; a registered EPEC answers 136 (section 3.10: the NF-e
// does not exist yet, so never 135). At the state's authorization: MOC 7.0 Anexo I group 2A (2AB08-10..40),
// which NT 2014.001 section 5.1 introduced. The generic rules (schema 493, signature, 573 duplicate) run in
// event-service.ts like for every event.
import { textOf } from '../fiscal/sefaz/xml-slice.js';
import { ufCode } from '../fiscal/layout/ibge.js';
import { isValidCnpj, isValidCpf } from '../kernel/tax-id.js';
import type { SimContext } from './sim-context.js';

export const EPEC = '110140';
export const EPEC_CORGAO = '91';
const HOUR = 3600_000;
/** P23-10 and B28-30's tolerance: 5 minutes of clock drift between the issuer and the authority. */
const DRIFT_MS = 5 * 60_000;
/** NT 2014.001 4.2 A: an EPEC pending conciliation for more than 168 hours blocks new EPEC for its issuer. */
export const EPEC_CONCILIATION_MS = 168 * HOUR;
/** NT 2014.001 3.9 (*3): the limit of vNF, vICMS and vST, "initially R$ 500 million". */
const VALUE_LIMIT = 500_000_000;
/** MOC 2AB08-40: EPEC replaced DPEC, deactivated on 31/03/2015 (NT 2014.001 v1.10); tpEmis 4 before that was DPEC's. */
const DPEC_DEACTIVATED = Date.parse('2015-04-01T00:00:00-03:00');

export interface EpecRule {
  id: string;
  source: 'NT 2014.001 v1.30' | 'MOC 7.0 Anexo I';
  cStat: number;
  message: string;
}

/** The rules the simulator enforces, as the NT / MOC state them. */
export const EPEC_RULES: readonly EpecRule[] = [
  { id: 'P08-10', source: 'NT 2014.001 v1.30', cStat: 250, message: 'Rejeição: UF diverge da UF autorizadora' },
  { id: 'P12-32', source: 'NT 2014.001 v1.30', cStat: 266, message: 'Rejeição: Série utilizada não permitida no Web Service' },
  { id: 'P12-50', source: 'NT 2014.001 v1.30', cStat: 484, message: 'Rejeição: Chave de Acesso com tipo de emissão diferente de 4 (posição 35 da Chave de Acesso)' },
  { id: 'P15-10', source: 'NT 2014.001 v1.30', cStat: 594, message: 'Rejeição: O número de sequencia do evento informado é maior que o permitido' },
  { id: 'P20-10', source: 'NT 2014.001 v1.30', cStat: 455, message: 'Rejeição: Órgão Autor do evento diferente da UF da Chave de Acesso' },
  { id: 'P23-10', source: 'NT 2014.001 v1.30', cStat: 212, message: 'Rejeição: Data de emissão NF-e posterior a data de recebimento' },
  { id: 'P23-20', source: 'NT 2014.001 v1.30', cStat: 228, message: 'Rejeição: Data de Emissão muito atrasada' },
  { id: 'P23-30', source: 'NT 2014.001 v1.30', cStat: 577, message: 'Rejeição: A data do evento não pode ser menor que a data de emissão da NF-e' },
  { id: 'P23-40', source: 'NT 2014.001 v1.30', cStat: 659, message: 'Rejeição: Ano-Mês da Data de Emissão diverge do Ano-Mês da Chave de Acesso' },
  { id: 'P25-10', source: 'NT 2014.001 v1.30', cStat: 229, message: 'Rejeição: IE do emitente não informada' },
  { id: 'P28-10', source: 'NT 2014.001 v1.30', cStat: 208, message: 'Rejeição: CNPJ do destinatário inválido' },
  { id: 'P29-10', source: 'NT 2014.001 v1.30', cStat: 237, message: 'Rejeição: CPF do destinatário inválido' },
  { id: 'P30-10', source: 'NT 2014.001 v1.30', cStat: 720, message: 'Rejeição: Na operação com Exterior deve ser informada tag idEstrangeiro' },
  { id: 'P30-20', source: 'NT 2014.001 v1.30', cStat: 721, message: 'Rejeição: Operação interestadual deve informar CNPJ ou CPF' },
  { id: 'P31-10', source: 'NT 2014.001 v1.30', cStat: 792, message: 'Rejeição: Informada a IE do destinatário para operação com destinatário no Exterior' },
  { id: 'P31-20', source: 'NT 2014.001 v1.30', cStat: 210, message: 'Rejeição: IE do destinatário inválida' },
  { id: 'P32-10', source: 'NT 2014.001 v1.30', cStat: 628, message: 'Rejeição: Total da NF superior ao valor limite estabelecido pela SEFAZ' },
  { id: 'P33-10', source: 'NT 2014.001 v1.30', cStat: 417, message: 'Rejeição: Total do ICMS superior ao valor limite estabelecido' },
  { id: 'P34-10', source: 'NT 2014.001 v1.30', cStat: 418, message: 'Rejeição: Total do ICMS ST superior ao valor limite estabelecido' },
  { id: '2P10-10', source: 'NT 2014.001 v1.30', cStat: 142, message: 'Rejeição: Ambiente de Contingência EPEC bloqueado para o Emitente' },
  { id: '3P12-10', source: 'NT 2014.001 v1.30', cStat: 485, message: 'Rejeição: Duplicidade de numeração do EPEC (Modelo, CNPJ ou CPF, Série e Número)' },
  { id: '4P12-10', source: 'NT 2014.001 v1.30', cStat: 661, message: 'Rejeição: NF-e já existente para o número do EPEC informado' },
  { id: '5P12.10', source: 'NT 2014.001 v1.30', cStat: 662, message: 'Rejeição: Numeração do EPEC está inutilizada na Base de Dados da SEFAZ' },
  { id: '2AB08-10', source: 'MOC 7.0 Anexo I', cStat: 692, message: 'Rejeição: Existe EPEC registrado para esta Série e Número' },
  { id: '2AB08-20', source: 'MOC 7.0 Anexo I', cStat: 691, message: 'Rejeição: Chave de Acesso da NF-e diverge da Chave de Acesso do EPEC' },
  { id: '2AB08-30', source: 'MOC 7.0 Anexo I', cStat: 467, message: 'Rejeição: Dados da NF-e divergentes do EPEC' },
  { id: '2AB08-40', source: 'MOC 7.0 Anexo I', cStat: 468, message: 'Rejeição: NF-e com Tipo Emissão = 4, sem EPEC correspondente' },
];

/** Words the NT gives that cstat.json lacks or writes otherwise (142 without "Rejeição:", 659 absent, 692 with its code inside). */
export const EPEC_MESSAGES: Readonly<Record<number, string>> = Object.fromEntries(
  EPEC_RULES.filter((r) => [142, 659, 692].includes(r.cStat)).map((r) => [r.cStat, r.message]),
);

/** An EPEC's answer code and, for 142, the keys pending conciliation (retEvento chNFePend, NT 3.9 (*4)). */
export interface EpecOutcome {
  cStat: number;
  pending?: string[];
}

const instant = (s: string | null) => (s ? Date.parse(s) : NaN);
const amount = (s: string | null) => Number(s ?? '0');

/** NT 2014.001 3.9: the first rule the EPEC breaks, or null (then registered with 136). */
export async function epecRejection(evento: string, at: Date, ctx: SimContext): Promise<EpecOutcome | null> {
  const key = textOf(evento, 'chNFe') ?? '';
  const det = /<detEvento[\s\S]*<\/detEvento>/.exec(evento)?.[0] ?? '';
  const dest = /<dest>[\s\S]*<\/dest>/.exec(det)?.[0] ?? '';
  const serie = Number(key.slice(22, 25));
  if (textOf(evento, 'cOrgao') !== EPEC_CORGAO) return { cStat: 250 };
  if (!((serie >= 0 && serie <= 889) || (serie >= 920 && serie <= 969))) return { cStat: 266 };
  if (key.charAt(34) !== '4') return { cStat: 484 };
  if (textOf(evento, 'nSeqEvento') !== '1') return { cStat: 594 };
  if (textOf(det, 'cOrgaoAutor') !== key.slice(0, 2)) return { cStat: 455 };
  const dhEmi = textOf(det, 'dhEmi');
  const emitted = instant(dhEmi);
  if (emitted > at.getTime() + DRIFT_MS) return { cStat: 212 };
  if (emitted < at.getTime() - 24 * HOUR) return { cStat: 228 };
  if (emitted > instant(textOf(evento, 'dhEvento'))) return { cStat: 577 };
  if (`${dhEmi?.slice(2, 4)}${dhEmi?.slice(5, 7)}` !== key.slice(2, 6)) return { cStat: 659 };
  const ie = textOf(det.replace(/<dest>[\s\S]*<\/dest>/, ''), 'IE') ?? '';
  if (/^0*$/.test(ie)) return { cStat: 229 };
  const cnpj = textOf(dest, 'CNPJ');
  const cpf = textOf(dest, 'CPF');
  if (cnpj !== null && !isValidCnpj(cnpj)) return { cStat: 208 };
  if (cpf !== null && !isValidCpf(cpf)) return { cStat: 237 };
  const uf = textOf(dest, 'UF');
  const foreign = textOf(dest, 'idEstrangeiro');
  if (uf === 'EX' && foreign === null) return { cStat: 720 };
  // The issuer's UF: the key's IBGE code, named by the author's cOrgaoAutor already checked against it (P20-10).
  if (foreign !== null && uf !== 'EX' && ufCode(uf ?? '') !== key.slice(0, 2)) return { cStat: 721 };
  const destIe = textOf(dest, 'IE');
  if (destIe !== null && uf === 'EX') return { cStat: 792 };
  if (destIe !== null && /^0*$/.test(destIe)) return { cStat: 210 };
  if (amount(textOf(dest, 'vNF')) > VALUE_LIMIT) return { cStat: 628 };
  if (amount(textOf(dest, 'vICMS')) > VALUE_LIMIT) return { cStat: 417 };
  if (amount(textOf(dest, 'vST')) > VALUE_LIMIT) return { cStat: 418 };
  const pending = await ctx.store.pendingEpecs(key.slice(6, 20), new Date(at.getTime() - EPEC_CONCILIATION_MS));
  if (pending.length > 0) return { cStat: 142, pending };
  if ((await ctx.store.epecsOfNumber(key)).length > 0) return { cStat: 485 };
  const obstacle = await ctx.store.obstacle({
    access_key: key, cnpj: key.slice(6, 20), model: 55, serie, nnf: Number(key.slice(25, 34)), tp_amb: Number(textOf(evento, 'tpAmb') ?? 2),
  });
  if (obstacle?.kind === 'voided') return { cStat: 662 };
  if (obstacle) return { cStat: 661 };
  return null;
}

/** The fields of (*1) of MOC 2AB08-30, NF-e tag -> how it is read from the note and from the EPEC. */
function divergentTag(nfeXml: string, epecProc: string): string | null {
  const block = (xml: string, name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml)?.[1] ?? '';
  const det = /<detEvento[\s\S]*<\/detEvento>/.exec(epecProc)?.[0] ?? '';
  const epecDest = block(det, 'dest');
  const ide = block(nfeXml, 'ide');
  const emit = block(nfeXml, 'emit').replace(/<enderEmit>[\s\S]*?<\/enderEmit>/, '');
  const dest = block(nfeXml, 'dest');
  const destUf = textOf(block(dest, 'enderDest'), 'UF') ?? (textOf(dest, 'idEstrangeiro') !== null ? 'EX' : null);
  const tot = block(nfeXml, 'ICMSTot');
  const pairs: Array<[string, string | null, string | null]> = [
    ['IE', textOf(emit, 'IE'), textOf(det.replace(/<dest>[\s\S]*<\/dest>/, ''), 'IE')],
    ['dhEmi', textOf(ide, 'dhEmi'), textOf(det, 'dhEmi')],
    ['tpNF', textOf(ide, 'tpNF'), textOf(det, 'tpNF')],
    ['UF', destUf, textOf(epecDest, 'UF')],
    ['CNPJ', textOf(dest, 'CNPJ'), textOf(epecDest, 'CNPJ')],
    ['CPF', textOf(dest, 'CPF'), textOf(epecDest, 'CPF')],
    ['idEstrangeiro', textOf(dest, 'idEstrangeiro'), textOf(epecDest, 'idEstrangeiro')],
    ['IE', textOf(dest.replace(/<enderDest>[\s\S]*?<\/enderDest>/, ''), 'IE'), textOf(epecDest, 'IE')],
    ['vNF', textOf(tot, 'vNF'), textOf(epecDest, 'vNF')],
    ['vICMS', textOf(tot, 'vICMS'), textOf(epecDest, 'vICMS')],
    ['vST', textOf(tot, 'vST'), textOf(epecDest, 'vST')],
  ];
  for (const [tag, note, epec] of pairs) {
    const same = tag === 'dhEmi' ? instant(note) === instant(epec) : tag.startsWith('v') ? amount(note) === amount(epec) : (note ?? '') === (epec ?? '');
    if (!same) return tag;
  }
  return null;
}

/**
 * MOC 2AB08 (NT 2014.001 5.1) at the state's authorization of an NF-e: an EPEC for its model, UF, issuer,
 * series and number binds the note to tpEmis 4 (692), to the EPEC's key (691) and to the EPEC's data (467,
 * the divergent tag named, as the (*1) note allows); a tpEmis 4 note without its EPEC is refused (468).
 * xMotivo carries the bracketed facts the MOC rows show.
 */
export async function epecAuthorizationRejection(
  nfeXml: string,
  facts: { accessKeyFromId: string; mod: string; tpEmis: string; dhEmi: string },
  ctx: SimContext,
): Promise<{ cStat: number; facts: Record<string, string> } | null> {
  if (facts.mod === '65') return nfceEpecRejection(nfeXml, facts, ctx);
  if (facts.mod !== '55') return null;
  const epecs = await ctx.store.epecsOfNumber(facts.accessKeyFromId);
  const epec = epecs[0];
  if (epec) {
    if (facts.tpEmis !== '4') return { cStat: 692, facts: { 'Chave EPEC': epec.accessKey } };
    if (epec.accessKey !== facts.accessKeyFromId) return { cStat: 691, facts: { 'Chave EPEC': epec.accessKey } };
    const tag = divergentTag(nfeXml, epec.procXml);
    return tag ? { cStat: 467, facts: { tag } } : null;
  }
  if (facts.tpEmis === '4' && instant(facts.dhEmi) > DPEC_DEACTIVATED) return { cStat: 468, facts: {} };
  return null;
}

/** The fields SP compares between an NFC-e and its EPEC: issuer IE, dhEmi, the recipient if any, vNF, vICMS. */
function nfceDivergentTag(nfceXml: string, epecProc: string): string | null {
  const block = (xml: string, name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml)?.[1] ?? '';
  const det = /<detEvento[\s\S]*<\/detEvento>/.exec(epecProc)?.[0] ?? '';
  const epecDest = block(det, 'dest');
  const dest = block(nfceXml, 'dest');
  const tot = block(nfceXml, 'ICMSTot');
  const pairs: Array<[string, string | null, string | null]> = [
    ['IE', textOf(block(nfceXml, 'emit').replace(/<enderEmit>[\s\S]*?<\/enderEmit>/, ''), 'IE'), textOf(det.replace(/<dest>[\s\S]*<\/dest>/, ''), 'IE')],
    ['dhEmi', textOf(block(nfceXml, 'ide'), 'dhEmi'), textOf(det, 'dhEmi')],
    ['CNPJ', textOf(dest, 'CNPJ'), textOf(epecDest, 'CNPJ')],
    ['CPF', textOf(dest, 'CPF'), textOf(epecDest, 'CPF')],
    ['idEstrangeiro', textOf(dest, 'idEstrangeiro'), textOf(epecDest, 'idEstrangeiro')],
    ['vNF', textOf(tot, 'vNF'), textOf(det.replace(/<dest>[\s\S]*<\/dest>/, ''), 'vNF')],
    ['vICMS', textOf(tot, 'vICMS'), textOf(det.replace(/<dest>[\s\S]*<\/dest>/, ''), 'vICMS')],
  ];
  for (const [tag, note, epec] of pairs) {
    const same = tag === 'dhEmi' ? instant(note) === instant(epec) : tag.startsWith('v') ? amount(note) === amount(epec) : (note ?? '') === (epec ?? '');
    if (!same) return tag;
  }
  return null;
}

/**
 * NT 2014/003 05.1 (EPEC of the NFC-e, docs/fiscal/offline-contingency.md#epec-sp) at SP's authorization: the NFC-e
 * of an EPEC carries its key, issuer IE, dhEmi, recipient (if any), vNF and vICMS, else 467; a tpEmis 4 NFC-e
 * without its EPEC is 468. The NF-e's 691/692 (MOC 2AB08-10/20, model 55 only) are not the NFC-e's.
 */
async function nfceEpecRejection(
  nfceXml: string,
  facts: { accessKeyFromId: string; tpEmis: string },
  ctx: SimContext,
): Promise<{ cStat: number; facts: Record<string, string> } | null> {
  const epec = (await ctx.store.epecsOfNumber(facts.accessKeyFromId)).find((e) => e.accessKey === facts.accessKeyFromId);
  if (epec) {
    const tag = nfceDivergentTag(nfceXml, epec.procXml);
    return tag ? { cStat: 467, facts: { tag } } : null;
  }
  return facts.tpEmis === '4' ? { cStat: 468, facts: {} } : null;
}
