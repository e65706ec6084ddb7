// The words the DANFSe prints for the codes of an NFS-e, from the XSD's own documentation of each
// simple type (tiposSimples_v1.01.xsd), and the formats of its values. A code the table lacks prints
// as itself: the DANFSe never says more than the XML ("não poderá conter informações que não existam
// no arquivo XML": Res. CGNFS-e 3/2023 art. 13, repeated in NT 008/2026 §2.1 as open implementations
// quote it; the NT's own text is not among our sources, docs/fiscal/nfse-national.md#danfse).
import type { DpsPartyId } from '../../fiscal/xml/nfse/model.js';
import type { NfseView } from '../../fiscal/xml/nfse/nfse-view.js';
import { formatCents, formatCep, formatCnpj, formatCpf, formatPhone } from '../br-format.js';

/** What a field without a value shows (a dash: NT 008/2026 §2.4.5 note 12, as open implementations quote it). */
export const NONE = '-';

/** TStat. */
const STATUS: Record<string, string> = { '100': 'NFS-e Gerada', '102': 'NFS-e de Decisão Judicial', '103': 'NFS-e Avulsa', '107': 'NFS-e MEI' };
/** TSAmbGeradorNFSe. */
const GENERATOR: Record<string, string> = { '1': 'Prefeitura', '2': 'Sistema Nacional da NFS-e' };
/** TSTribISSQN. */
const TRIB_ISSQN: Record<string, string> = { '1': 'Operação tributável', '2': 'Imunidade', '3': 'Exportação de serviço', '4': 'Não incidência' };
/** TSTipoRetISSQN. */
const RET_ISSQN: Record<string, string> = { '1': 'Não retido', '2': 'Retido pelo tomador', '3': 'Retido pelo intermediário' };
/** TSOpSimpNac. */
const SIMPLES: Record<string, string> = { '1': 'Não optante', '2': 'Optante - MEI', '3': 'Optante - ME/EPP' };
/** TSRegEspTrib. */
const SPECIAL_REGIME: Record<string, string> = {
  '0': 'Nenhum',
  '1': 'Ato cooperado',
  '2': 'Estimativa',
  '3': 'Microempresa municipal',
  '4': 'Notário ou registrador',
  '5': 'Profissional autônomo',
  '6': 'Sociedade de profissionais',
  '9': 'Outros',
};
/** TSTipoRetPISCofins. */
const RET_PIS_COFINS: Record<string, string> = {
  '0': 'PIS/COFINS/CSLL não retidos',
  '1': 'PIS/COFINS retidos',
  '2': 'PIS/COFINS não retidos',
  '3': 'PIS/COFINS/CSLL retidos',
  '4': 'PIS/COFINS retidos, CSLL não retido',
  '5': 'PIS retido, COFINS/CSLL não retidos',
  '6': 'COFINS retido, PIS/CSLL não retidos',
  '7': 'PIS não retido, COFINS/CSLL retidos',
  '8': 'PIS/COFINS não retidos, CSLL retido',
  '9': 'COFINS não retido, PIS/CSLL retidos',
};
/** TSCodNaoNIF. */
const NO_NIF: Record<string, string> = { '0': 'NIF não informado na nota de origem', '1': 'Dispensado do NIF', '2': 'Não exigência do NIF' };

const coded = (table: Record<string, string>, code: string | undefined) => (code === undefined ? NONE : `${code} - ${table[code] ?? 'código não previsto no leiaute'}`);

export const statusText = (cStat: string) => coded(STATUS, cStat);
export const generatorText = (ambGer: string) => coded(GENERATOR, ambGer);
export const tribIssqnText = (code: string) => coded(TRIB_ISSQN, code);
export const retIssqnText = (code: string) => coded(RET_ISSQN, code);
export const simplesText = (code: string | undefined) => coded(SIMPLES, code);
export const specialRegimeText = (code: string | undefined) => coded(SPECIAL_REGIME, code);
export const retPisCofinsText = (code: string | undefined) => coded(RET_PIS_COFINS, code);
/** TSTipoAmbiente of the DPS. */
export const environmentText = (tpAmb: 1 | 2) => (tpAmb === 1 ? '1 - Produção' : '2 - Homologação (produção restrita)');

/** Cents -> "1.234,56"; absent -> dash. */
export const money = (cents: number | undefined) => (cents === undefined ? NONE : formatCents(cents));
/** Hundredths of a percent -> "5,00 %". */
export const percent = (hundredths: number | undefined) => (hundredths === undefined ? NONE : `${formatCents(hundredths)} %`);
/** "2025-12-30" -> "30/12/2025". */
export const day = (iso: string) => iso.replace(/^(\d{4})-(\d{2})-(\d{2}).*$/, '$3/$2/$1');
export const orNone = (v: string | undefined) => (v === undefined || v === '' ? NONE : v);
export const phone = (v: string | undefined) => (v ? formatPhone(v) : NONE);
export const cep = (v: string | undefined) => (v ? formatCep(v) : NONE);

export function partyDocument(id: DpsPartyId): string {
  if ('CNPJ' in id) return formatCnpj(id.CNPJ);
  if ('CPF' in id) return formatCpf(id.CPF);
  if ('NIF' in id) return `NIF ${id.NIF}`;
  return NO_NIF[String(id.cNaoNIF)] ?? NONE;
}

export const documentLabel = (id: DpsPartyId) => ('CNPJ' in id ? 'CNPJ' : 'CPF' in id ? 'CPF' : 'NIF');

/**
 * A municipality as "Name (code)" when the note names that code somewhere (emission, provision,
 * incidence, IBS/CBS incidence), else the IBGE code alone: the XML carries no other names.
 */
export function place(view: NfseView, code: string | undefined): string {
  if (!code) return NONE;
  const names = new Map<string, string>([[view.dps.cLocEmi, view.xLocEmi]]);
  if (view.dps.serv.cLocPrestacao) names.set(view.dps.serv.cLocPrestacao, view.xLocPrestacao);
  if (view.cLocIncid && view.xLocIncid) names.set(view.cLocIncid, view.xLocIncid);
  if (view.ibsCbs) names.set(view.ibsCbs.cLocalidadeIncid, view.ibsCbs.xLocalidadeIncid);
  const name = names.get(code);
  return name ? `${name} (${code})` : `IBGE ${code}`;
}

/**
 * The QR code's content: the national portal's public consultation by key, a fixed address followed
 * by the 50-character key. Source: open DANFSe v2.0 implementations that quote NT 008/2026 §2.4.3
 * (one test suite asserts exactly this address + key); the NT's text itself is not in our folder.
 */
export const CONSULTATION_URL = 'https://www.nfse.gov.br/ConsultaPublica/?tpc=1&chave=';
export const consultationUrl = (accessKey: string) => `${CONSULTATION_URL}${accessKey}`;
