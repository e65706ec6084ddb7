// The registered event (evento_v1.01.xsd TCEvento, docs/fiscal/nfse-national.md#events): infEvento Id = "EVT" + the 56 digits of
// the request Id + nSeqEvento(3), then verAplic, ambGer, nSeqEvento, dhProc, nDFSe and the
// pedRegEvento embedded as received; signed by the simulator with Sefin's profile. Also the
// pedRegEvento Sefin writes itself for 105102 (cancellation by substitution, author = the system).
import type { SigningKey } from '../../fiscal/xml/signature/sign.js';
import { el, leaf, NFSE_NAMESPACE, optLeaf } from '../../fiscal/xml/xml-text.js';
import { brasilia, SIM_VERSION } from './nfse-wire.js';
import { signAsSefin } from './sefin-signature.js';

export interface EventoInput {
  /** The request Id: "PRE" + key(50) + tpEvento(6). */
  preId: string;
  nSeq: number;
  nDFSe: number;
  processedAt: Date;
  /** The pedRegEvento without XML declaration. */
  pedRegText: string;
}

export function writeEvento(e: EventoInput, key: SigningKey): string {
  const inf =
    leaf('verAplic', SIM_VERSION) +
    // TSAmbGeradorEvt: 2 = Sefin Nacional NFS-e.
    leaf('ambGer', 2) +
    leaf('nSeqEvento', e.nSeq) +
    leaf('dhProc', brasilia(e.processedAt)) +
    leaf('nDFSe', e.nDFSe) +
    e.pedRegText;
  const id = `EVT${e.preId.slice(3)}${String(e.nSeq).padStart(3, '0')}`;
  return signAsSefin(`<evento xmlns="${NFSE_NAMESPACE}" versao="1.01"><infEvento Id="${id}">${inf}</infEvento></evento>`, 'infEvento', key);
}

export interface SubstitutionRequest {
  /** The replaced NFS-e. */
  chNFSe: string;
  chSubstituta: string;
  tpAmb: 1 | 2;
  author: { CNPJ?: string | undefined; CPF?: string | undefined };
  /** TSCodJustSubst, from DPS/infDPS/subst/cMotivo (XSD TE105102). */
  cMotivo: string;
  xMotivo?: string | undefined;
  at: Date;
}

/** The unsigned 105102 request Sefin registers on the replaced NFS-e (docs/fiscal/nfse-national.md#events: not sent by the taxpayer). */
export function substitutionRequest(r: SubstitutionRequest): { preId: string; xml: string } {
  const preId = `PRE${r.chNFSe}105102`;
  const author = r.author.CNPJ ? leaf('CNPJAutor', r.author.CNPJ) : leaf('CPFAutor', r.author.CPF ?? '');
  const e105102 = el(
    'e105102',
    // XSD enumeration, accented (docs/fiscal/nfse-national.md#events).
    leaf('xDesc', 'Cancelamento de NFS-e por Substituição') + leaf('cMotivo', r.cMotivo) + optLeaf('xMotivo', r.xMotivo) + leaf('chSubstituta', r.chSubstituta),
  );
  const inf = leaf('tpAmb', r.tpAmb) + leaf('verAplic', SIM_VERSION) + leaf('dhEvento', brasilia(r.at)) + author + leaf('chNFSe', r.chNFSe) + e105102;
  return { preId, xml: `<pedRegEvento xmlns="${NFSE_NAMESPACE}" versao="1.01"><infPedReg Id="${preId}">${inf}</infPedReg></pedRegEvento>` };
}
