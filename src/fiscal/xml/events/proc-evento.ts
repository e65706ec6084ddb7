// procEventoNFe (leiauteEvento_v1.00.xsd TProcEvento, docs/fiscal/events.md): the archive form of an event, the
// signed evento as sent followed by the authority's retEvento, both kept byte for byte (their
// signatures cover those bytes; inclusive C14N sees the same default namespace inside the proc).
import { el, NFE_NAMESPACE } from '../xml-text.js';

const declaration = /^\uFEFF?\s*<\?xml[^?]*\?>\s*/;

// What a parser does not read as elements: comments, CDATA sections, processing instructions.
const HIDDEN = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<\?[\s\S]*?(?:\?>|$)/g;

/**
 * The text of the first `<name>` element's content, or null (names are unprefixed in NF-e documents).
 * Text that only looks like an element, inside a comment or CDATA, is not read.
 */
function firstText(xml: string, name: string): string | null {
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml.replace(HIDDEN, ''))?.[1] ?? null;
}

export class ProcEventoMismatchError extends Error {
  override readonly name = 'ProcEventoMismatchError';
}

/**
 * evento + retEvento -> procEventoNFe versao 1.00. The answer must belong to the event: same chNFe,
 * tpEvento and nSeqEvento (when the answer names them), else the archive would pair strangers.
 */
export function buildProcEventoNFe(signedEventoXml: string, retEventoXml: string): string {
  const evento = signedEventoXml.replace(declaration, '');
  const ret = retEventoXml.replace(declaration, '');
  if (!evento.startsWith('<evento') || !ret.startsWith('<retEvento')) {
    throw new ProcEventoMismatchError('expected an <evento> and a <retEvento> element');
  }
  for (const field of ['chNFe', 'tpEvento', 'nSeqEvento']) {
    const answered = firstText(ret, field);
    if (answered !== null && answered !== firstText(evento, field)) {
      throw new ProcEventoMismatchError(`retEvento ${field} ${answered} differs from the event's ${firstText(evento, field)}`);
    }
  }
  return el('procEventoNFe', evento + ret, [['xmlns', NFE_NAMESPACE], ['versao', '1.00']]);
}
