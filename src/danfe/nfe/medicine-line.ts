import { formatDecimal, formatMoney } from '../br-format.js';
import { child, children, text, type XmlNode } from '../xml-node.js';

// The batches (prod/rastro) and the medicine group (prod/med) of an item, docs/fiscal/medicines.md, as one line
// printed under the item's description on the NF-e DANFE, before its other additional text: each batch as
// "Lote: X Qtd: q Fab: dd/mm/aaaa Val: dd/mm/aaaa", as pharmacies and distributors print them, then the ANVISA
// registration and the maximum consumer price.

/** "2027-01-31" -> "31/01/2027"; the text as written when it is not such a date. */
function day(value: string | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value ?? '');
  return m ? `${m[3]}/${m[2]}/${m[1]}` : (value ?? '');
}

export function medicineLine(prod: XmlNode | undefined): string | undefined {
  const parts = children(prod, 'rastro').map((r) => {
    const q = text(r, 'qLote');
    return `Lote: ${text(r, 'nLote') ?? ''}${q !== undefined ? ` Qtd: ${formatDecimal(q, 0)}` : ''} Fab: ${day(text(r, 'dFab'))} Val: ${day(text(r, 'dVal'))}`;
  });
  const med = child(prod, 'med');
  const anvisa = text(med, 'cProdANVISA');
  if (anvisa !== undefined) {
    const reason = text(med, 'xMotivoIsencao');
    const pmc = text(med, 'vPMC');
    parts.push(`ANVISA: ${anvisa}${reason !== undefined ? ` (${reason})` : ''}${pmc !== undefined ? ` PMC: R$ ${formatMoney(pmc)}` : ''}`);
  }
  return parts.length > 0 ? parts.join(' - ') : undefined;
}

/** `extra` (the fuel line and infAdProd) with the medicine line before it (either may be absent). */
export function withMedicineLine(prod: XmlNode | undefined, extra: string | undefined): string | undefined {
  const line = medicineLine(prod);
  if (line === undefined) return extra;
  return extra === undefined ? line : `${line} - ${extra}`;
}
