import { sliceAll, sliceElement } from '../fiscal/sefaz/xml-slice.js';
import type { NfeFacts } from './nfe-facts.js';
import type { Rejection } from './nfe-rules.js';

// MOC 7.0 Anexo I, section 4.2.1 group 7 ("Banco de Dados: Cadastro da SEFAZ"): the rows the
// simulator can apply without a taxpayer register. The optional rows of the group (7B09-10, 7C10-10,
// 7C21-10, 7E10-10, 7GA01-*, 7ZD*) are each UF's choice and need its register: not applied.

/** 7I03-10 (889, NT 2017.001): an item without a GTIN (cEAN empty); a product without one says "SEM GTIN". */
export function sefazRegisterRejection(f: NfeFacts): Rejection | null {
  const inf = sliceElement(f.xml, 'infNFe');
  const dets = inf ? sliceAll(inf.inner, 'det') : [];
  for (const [i, det] of dets.entries()) {
    const prod = sliceElement(det.inner, 'prod');
    const cEAN = prod ? sliceElement(prod.inner, 'cEAN') : null;
    if (cEAN && cEAN.inner.trim() === '') {
      const nItem = /\snItem="([0-9]+)"/.exec(det.outer)?.[1] ?? String(i + 1);
      return { cStat: 889, xMotivo: `Rejeição: Obrigatória a informação do GTIN para o produto [nItem: ${nItem}]`, detail: `item ${nItem} without cEAN` };
    }
  }
  return null;
}
