import { nfe55Xml } from '../../src/authority-sim/nfe55-template.js';
import { buildCancellationEvent, buildCorrectionLetterEvent, buildManifestationEvent, type ManifestationType } from '../../src/fiscal/xml/events/index.js';
import { signElement } from '../../src/fiscal/xml/signature/sign.js';
import { startAuthorityHarness, type AuthorityHarness } from './authority-harness.js';
import { brasiliaTime, type TestIssuer } from './authority-fixtures.js';

/** Model-55 calls of the harness: the issuer's UF (RS, the template's) and the Ambiente Nacional. */
export const RS55 = { uf: 'RS', model: 55 as const, tpAmb: 2 as const };

/** A signed model-55 NF-e (RS, homologation) from `cnpj` to `dest`. */
export function signedNfe55(issuer: TestIssuer, p: { cnpj: string; nNF: number; dest: { CNPJ: string } | { CPF: string }; dhEmi?: Date; tpEmis?: 1 | 4; cNF?: string }) {
  const { xml, accessKey } = nfe55Xml({ emitCnpj: p.cnpj, dest: p.dest, nNF: p.nNF, dhEmi: p.dhEmi ?? new Date(), ...(p.tpEmis ? { tpEmis: p.tpEmis } : {}), ...(p.cNF ? { cNF: p.cNF } : {}) });
  return { xml: signElement(xml, 'infNFe', issuer.signingKey).xml, accessKey };
}

/** Authorises a model-55 note through the client; throws unless 100. */
export async function authorizedNfe55(h: AuthorityHarness, p: { cnpj: string; nNF: number; recipient: string }) {
  const { xml, accessKey } = signedNfe55(h.issuer, { cnpj: p.cnpj, nNF: p.nNF, dest: { CNPJ: p.recipient } });
  const out = await h.client.authorize({ ...RS55, signedNFeXml: xml, idLote: 1 });
  if (out.kind !== 'authorized') throw new Error(`not authorized: ${JSON.stringify(out).slice(0, 400)}`);
  return { accessKey, nProt: out.protocol.info.nProt! };
}

const now = () => brasiliaTime(new Date());

export function cce(h: AuthorityHarness, p: { cnpj: string; accessKey: string; nSeqEvento: number }) {
  return buildCorrectionLetterEvent(
    { cOrgao: '43', tpAmb: 2, author: { CNPJ: p.cnpj }, chNFe: p.accessKey, dhEvento: now(), nSeqEvento: p.nSeqEvento, xCorrecao: 'Onde se le CFOP 6101 leia-se CFOP 6102' },
    h.issuer.signingKey,
  ).xml;
}

export function nfeCancellation(h: AuthorityHarness, p: { cnpj: string; accessKey: string; nProt: string }) {
  return buildCancellationEvent(
    { cOrgao: '43', tpAmb: 2, author: { CNPJ: p.cnpj }, chNFe: p.accessKey, dhEvento: now(), nProt: p.nProt, xJust: 'Venda desfeita antes da saida' },
    h.issuer.signingKey,
  ).xml;
}

export function manifestation(h: AuthorityHarness, p: { recipient: string; accessKey: string; tpEvento: ManifestationType; nSeqEvento?: number }) {
  const xJust = p.tpEvento === '210240' ? { xJust: 'Mercadoria nunca foi entregue' } : {};
  return buildManifestationEvent(
    { tpAmb: 2, author: { CNPJ: p.recipient }, chNFe: p.accessKey, dhEvento: now(), tpEvento: p.tpEvento, nSeqEvento: p.nSeqEvento ?? 1, ...xJust },
    h.issuer.signingKey,
  ).xml;
}

export const HOUR = 3600_000;

/** The harness with the simulator's clock running `shift.ms` ahead of the real one (time windows, the one-hour rule). */
export async function startShiftedHarness(): Promise<{ h: AuthorityHarness; shift: { ms: number } }> {
  const h = await startAuthorityHarness();
  const shift = { ms: 0 };
  h.sim.setClock(() => new Date(Date.now() + shift.ms));
  return { h, shift };
}
