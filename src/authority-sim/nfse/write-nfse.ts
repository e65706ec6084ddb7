// The NFS-e Sefin generates from an accepted DPS (NFSe_v1.01.xsd TCInfNFSe), in the structure of the
// real restricted-production sample (test/fixtures/samples/nfse/nfse_v1.01_RJ_...): infNFSe Id "NFS" +
// key, the place names, numbers, processing data, emit, valores, then the DPS embedded unchanged;
// signed by the simulator with Sefin's profile (sefin-signature.ts).
import { municipality, ufCode } from '../../fiscal/layout/ibge.js';
import { formatCents } from '../../kernel/decimal.js';
import type { SigningKey } from '../../fiscal/xml/signature/sign.js';
import { el, leaf, NFSE_NAMESPACE, optLeaf } from '../../fiscal/xml/xml-text.js';
import type { DpsFacts } from './dps-facts.js';
import { nfseValues } from './nfse-values.js';
import { brasilia, SIM_VERSION } from './nfse-wire.js';
import { signAsSefin } from './sefin-signature.js';
import type { TaxpayerRecord } from './taxpayer-register.js';
import { writeNfseIbsCbs } from './write-nfse-ibscbs.js';

export interface NfseIssue {
  key: string;
  nNFSe: number;
  nDFSe: number;
  processedAt: Date;
  /** The provider's name from the client certificate: written when the register has no record. */
  providerName: string;
  /** The provider as the taxpayer register holds it (taxpayer-register.ts); undefined: not registered. */
  provider?: TaxpayerRecord | undefined;
  facts: DpsFacts;
  /** The DPS as received (signature included), without its XML declaration. */
  dpsText: string;
}

const UFS = ['RO', 'AC', 'AM', 'RR', 'PA', 'AP', 'TO', 'MA', 'PI', 'CE', 'RN', 'PB', 'PE', 'AL', 'SE', 'BA', 'MG', 'ES', 'RJ', 'SP', 'PR', 'SC', 'RS', 'MS', 'MT', 'GO', 'DF'];
const ufOf = (cMun: string) => UFS.find((uf) => ufCode(uf) === cMun.slice(0, 2)) ?? 'DF';
const placeName = (code: string | undefined) => (code ? (municipality(code)?.name ?? `Município ${code}`) : 'Exterior');
const money = (name: string, cents: number) => leaf(name, formatCents(cents));

export function writeNfse(n: NfseIssue, key: SigningKey): string {
  const f = n.facts;
  const v = nfseValues(f.values);
  // The simulator has no copy of the national service list nor of the NBS: the descriptions name the codes.
  const xTribNac = `Subitem ${f.cTribNac.slice(0, 2)}.${f.cTribNac.slice(2, 4)}.${f.cTribNac.slice(4)} da Lista de Serviços Nacional`;
  // LC 116/2003 art. 3 caput: the tax falls due where the provider is established; the article's
  // exceptions (place of provision) are not simulated.
  const cLocIncid = f.cLocEmi;
  // The provider's name and address come from Sefin's registers (the DPS may not carry the address,
  // E0128): the simulator's register is what the gateway told it of the issuer (taxpayer-register.ts).
  // A provider it does not know gets the municipality of the DPS and says the rest is not registered.
  const a = n.provider?.address;
  const enderNac = a
    ? el('enderNac', leaf('xLgr', a.street) + leaf('nro', a.number) + optLeaf('xCpl', a.complement) + leaf('xBairro', a.district) + leaf('cMun', a.municipalityCode) + leaf('UF', ufOf(a.municipalityCode)) + leaf('CEP', a.postalCode))
    : el(
        'enderNac',
        leaf('xLgr', 'ENDERECO NAO CADASTRADO NO SIMULADOR') + leaf('nro', 'SN') + leaf('xBairro', 'NAO CADASTRADO') + leaf('cMun', f.cLocEmi) + leaf('UF', ufOf(f.cLocEmi)) + leaf('CEP', '00000000'),
      );
  const emit = el(
    'emit',
    (f.prest.CNPJ ? leaf('CNPJ', f.prest.CNPJ) : leaf('CPF', f.prest.CPF ?? '')) +
      optLeaf('IM', f.prest.IM) +
      leaf('xNome', n.provider?.name ?? n.providerName) +
      optLeaf('xFant', n.provider?.tradeName) +
      enderNac +
      optLeaf('fone', f.prest.fone) +
      optLeaf('email', f.prest.email),
  );
  // Anexo I E1301/E1303: with immunity, export or no incidence (tribISSQN 2, 3, 4) the NFS-e has no
  // place of incidence and, of its valores, only vLiq (docs/fiscal/exports-and-delivery.md).
  const noIncidence = [2, 3, 4].includes(f.values.tribISSQN);
  const valores = el(
    'valores',
    noIncidence
      ? money('vLiq', v.vLiq)
      : money('vBC', v.vBC) +
          (v.pAliqAplic !== undefined ? money('pAliqAplic', v.pAliqAplic) : '') +
          (v.vISSQN !== undefined ? money('vISSQN', v.vISSQN) : '') +
          money('vTotalRet', v.vTotalRet) +
          money('vLiq', v.vLiq),
  );
  const inf =
    leaf('xLocEmi', placeName(f.cLocEmi)) +
    leaf('xLocPrestacao', placeName(f.cLocPrestacao)) +
    leaf('nNFSe', n.nNFSe) +
    (noIncidence ? '' : leaf('cLocIncid', cLocIncid) + leaf('xLocIncid', placeName(cLocIncid))) +
    leaf('xTribNac', xTribNac) +
    optLeaf('xNBS', f.cNBS && `NBS ${f.cNBS}`) +
    leaf('verAplic', SIM_VERSION) +
    // docs/fiscal/nfse-national.md#access-key: ambGer 2 = Sefin Nacional; tpEmis 1 and procEmi 1 as on the sample (DPS sent by the taxpayer's application).
    leaf('ambGer', 2) +
    leaf('tpEmis', 1) +
    leaf('procEmi', 1) +
    leaf('cStat', 100) +
    leaf('dhProc', brasilia(n.processedAt)) +
    leaf('nDFSe', n.nDFSe) +
    emit +
    valores +
    // TCInfNFSe: IBSCBS after valores (and xOutInf, not written), before the DPS.
    writeNfseIbsCbs(f, v);
  const xml = `<NFSe xmlns="${NFSE_NAMESPACE}" versao="1.01"><infNFSe Id="NFS${n.key}">${inf}${n.dpsText}</infNFSe></NFSe>`;
  return signAsSefin(xml, 'infNFSe', key);
}
