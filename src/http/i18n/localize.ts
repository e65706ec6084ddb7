import { REJECTION_HINTS } from '../../fiscal/cstat/rejection-hints.js';
import { REJECTION_FALLBACKS_PT_BR, REJECTION_HINTS_PT_BR } from '../../fiscal/cstat/rejection-hints-pt-br.js';
import { NFSE_HINTS } from '../../documents/nfse/domain/nfse-rejection.js';
import { NFSE_HINTS_PT_BR, NFSE_REJECTION_TEMPLATES_PT_BR } from '../../documents/nfse/domain/nfse-rejection-hints-pt-br.js';
import type { ErrorCode, ErrorDetail } from '../../kernel/errors.js';
import type { ApiLanguage } from './language.js';
import { FIELD_RULES_PT_BR, GOODS_PT_BR, VALUES_PT_BR } from './domain-goods-pt-br.js';
import { NFCE_PT_BR, NFE_PT_BR } from './domain-nfce-nfe-pt-br.js';
import { NFE_OPERATIONS_PT_BR } from './domain-nfe-operations-pt-br.js';
import { FOREIGN_TRADE_PT_BR } from './domain-foreign-trade-pt-br.js';
import { VEHICLES_PT_BR } from './domain-vehicles-pt-br.js';
import { NFSE_PT_BR } from './domain-nfse-pt-br.js';
import { REFORM_GROUPS_PT_BR } from './domain-reform-groups-pt-br.js';
import { ENVELOPE_MESSAGES_PT_BR, ERROR_MESSAGES_PT_BR, summarizeDetailsPtBr } from './error-messages.js';
import { TemplateCatalog, type Translations } from './template-catalog.js';
import { STRICT_XML_PT_BR, XML_PARSER_PT_BR } from './xml-input-pt-br.js';

// The language of `message` and `hint`, chosen by Accept-Language, applied when the
// HTTP layer writes an answer. Everything below src/http/ writes English; codes, field paths and rule
// ids are never translated. English stays the default (no header, or one naming no language we speak).

/** A hint's English sentence -> its pt-BR one, from the two tables kept by code. */
function byCode(en: Readonly<Record<string, string | { hint: string }>>, pt: Readonly<Record<string, string>>): Translations {
  const out: Record<string, string> = {};
  for (const [code, v] of Object.entries(en)) {
    const english = typeof v === 'string' ? v : v.hint;
    if (pt[code] !== undefined) out[english] = pt[code];
  }
  return out;
}

/** Hints of the rejections the authorities answer (NF-e/NFC-e cStat, NFS-e codes). */
export const HINT_CATALOG_PT_BR = new TemplateCatalog([
  byCode(REJECTION_HINTS, REJECTION_HINTS_PT_BR),
  byCode(NFSE_HINTS, NFSE_HINTS_PT_BR),
  REJECTION_FALLBACKS_PT_BR,
  NFSE_REJECTION_TEMPLATES_PT_BR,
]);

/** A value inside a sentence, said in pt-BR: a word of the validators, an ISO day as 31/03/2025. */
const DOCUMENT_NAMES = /^an (?:NF-e|NFC-e|NFS-e)(?: \(model \d+\))?(?: or an (?:NF-e|NFC-e|NFS-e)(?: \(model \d+\))?)*$/;

/** What an XML text was found to hold, and the XML parser's reason, said in pt-BR (xml-input-pt-br.ts). */
const XML_PARSER_CATALOG_PT_BR = new TemplateCatalog([XML_PARSER_PT_BR]);

function valuePtBr(v: string): string {
  if (VALUES_PT_BR[v] !== undefined) return VALUES_PT_BR[v];
  // A list of such words ("monophase (gIBSCBSMono), competence adjustment (gAjusteCompet)"), each said.
  const parts = v.split(', ');
  if (parts.length > 1 && parts.every((p) => VALUES_PT_BR[p] !== undefined)) return parts.map((p) => VALUES_PT_BR[p]).join(', ');
  const xml = XML_PARSER_CATALOG_PT_BR.translate(v);
  if (xml !== undefined) return xml;
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return v.split('-').reverse().join('/');
  // "an NF-e (model 55) or an NFC-e (model 65)" -> "a NF-e (modelo 55) ou a NFC-e (modelo 65)"
  if (DOCUMENT_NAMES.test(v)) return v.replace(/\ban /g, 'a ').replace(/\(model /g, '(modelo ').replace(/ or /g, ' ou ');
  return v;
}

/** The request validators' sentences (details[].message). */
export const DETAIL_CATALOG_PT_BR = new TemplateCatalog([FIELD_RULES_PT_BR, GOODS_PT_BR, NFCE_PT_BR, NFE_PT_BR, NFE_OPERATIONS_PT_BR, FOREIGN_TRADE_PT_BR, VEHICLES_PT_BR, REFORM_GROUPS_PT_BR, NFSE_PT_BR, NFSE_REJECTION_TEMPLATES_PT_BR, ENVELOPE_MESSAGES_PT_BR, STRICT_XML_PT_BR], valuePtBr);

const ENVELOPE_CATALOG_PT_BR = new TemplateCatalog([ENVELOPE_MESSAGES_PT_BR], valuePtBr);

/** One sentence of a detail in the request's language (the English one when the catalog lacks it). */
export function localizeDetailMessage(lang: ApiLanguage, message: string): string {
  return lang === 'pt-BR' ? (DETAIL_CATALOG_PT_BR.translate(message) ?? message) : message;
}

/** The envelope's message and details in the request's language; codes and fields untouched. */
export function localizeError(
  lang: ApiLanguage,
  code: ErrorCode,
  message: string,
  details: ErrorDetail[] | undefined,
): { message: string; details: ErrorDetail[] | undefined } {
  if (lang !== 'pt-BR') return { message, details };
  const translated = details?.map((d) => ({ ...d, message: localizeDetailMessage(lang, d.message) }));
  const known = ENVELOPE_CATALOG_PT_BR.translate(message);
  if (known !== undefined) return { message: known, details: translated };
  // "items[0].ncm must be ... (and 2 more problems)": the summary of the details, said again from them.
  const first = details?.[0];
  if (first && translated && message.startsWith(`${first.field} ${first.message}`)) {
    return { message: summarizeDetailsPtBr(translated[0], translated.length), details: translated };
  }
  return { message: ERROR_MESSAGES_PT_BR[code], details: translated };
}

interface RejectionLike {
  code?: unknown;
  message?: unknown;
  hint?: unknown;
  errors?: unknown;
}

/**
 * A note's rejection object in the request's language: the hint translated, the authority's own
 * message (xMotivo, Sefin's descricao) as the authority wrote it. Only the gateway's fallback
 * sentences in `message` ("Authority answered cStat 999") are said in Portuguese.
 */
export function localizeRejection<T extends RejectionLike>(lang: ApiLanguage, r: T): T {
  if (lang !== 'pt-BR') return r;
  const out: RejectionLike = { ...r };
  if (typeof r.hint === 'string') out.hint = HINT_CATALOG_PT_BR.translate(r.hint) ?? r.hint;
  if (typeof r.message === 'string') out.message = HINT_CATALOG_PT_BR.translate(r.message) ?? r.message;
  return out as T;
}
