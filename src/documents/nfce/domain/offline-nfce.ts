// An NFC-e the point of sale issued itself in offline contingency (docs/fiscal/offline-contingency.md, docs/fiscal/offline-contingency.md#autopilot
// "manual mode"): what the gateway reads of it and the rules it must meet before it is stored and
// transmitted. Pure. The facts are read from the one tree the signature covers (a
// slicer read `<!-- NFe 2003 -->` before the signed NFe 2002 as 2003), parsed strictly once.
import type { Element } from '@xmldom/xmldom';
import { parseAccessKey } from '../../../fiscal/layout/access-key.js';
import { isValidCnf } from '../../../fiscal/layout/cnf.js';
import { parseStrictDocument, type StrictRules } from '../../../fiscal/xml/strict-document.js';
import { NFE_NAMESPACE } from '../../../fiscal/xml/xml-text.js';
import type { ErrorDetail } from '../../../kernel/errors.js';
import { OFFLINE_IDE_LEAVES, offlineIdeProblems, type OfflineIdeLeaf, type OfflineIdeValues } from './offline-ide-rules.js';

/** What the intake reads of an offline NFC-e (values as written). */
export interface OfflineNfceFacts {
  id: string;
  accessKey: string;
  cUF: string;
  cNF: string;
  mod: string;
  serie: string;
  nNF: string;
  dhEmi: string;
  tpEmis: string;
  cDV: string;
  tpAmb: string;
  dhCont: string | null;
  xJust: string | null;
  emitCnpj: string | null;
  vNF: string;
  dest: { kind: 'CNPJ' | 'CPF'; id: string } | null;
  qrCode: string | null;
  urlChave: string | null;
  signed: boolean;
  /** The other ide values the authority's rules read (offline-ide-rules.ts). */
  ide: OfflineIdeValues;
}

/**
 * The bounds of an offline NFe: 990 items (the NFC-e's most, docs/fiscal/access-key.md) make about 0.7 MB and 37,000
 * elements; a document is a few levels deep (the Signature's elements are the deepest, at 6). The QR code and its URL may be written as
 * CDATA (MOC 4.01, infNFeSupl); nowhere else does the layout use it.
 */
export const OFFLINE_XML_RULES: StrictRules = {
  root: 'NFe', namespace: NFE_NAMESPACE, cdataWithin: ['infNFeSupl'], maxBytes: 2_000_000, maxElements: 60_000, maxDepth: 16,
};

/** Child elements with this local name (NF-e namespace, or the xmldsig one for Signature). */
function kids(parent: Element | null | undefined, name: string): Element[] {
  const out: Element[] = [];
  for (let c = parent?.firstChild; c; c = c.nextSibling) if (c.nodeType === 1 && (c as Element).localName === name) out.push(c as Element);
  return out;
}
const el = (parent: Element | null | undefined, name: string): Element | null => kids(parent, name)[0] ?? null;
const text = (e: Element | null): string | null => (e ? (e.textContent ?? '') : null);

/**
 * The facts of an NFe element: null when it is not NFe > infNFe (one of each, the caller answers 422 on
 * `xml`). NFe's element children must be infNFe, then infNFeSupl, then Signature (docs/fiscal/qrcode.md), each at most
 * once: whatever else would sit beside the signed infNFe is refused, not skipped.
 */
export function offlineFactsOf(nfe: Element): OfflineNfceFacts | null {
  const order = ['infNFe', 'infNFeSupl', 'Signature'];
  let at = 0;
  for (let c = nfe.firstChild; c; c = c.nextSibling) {
    if (c.nodeType !== 1) continue;
    const i = order.indexOf((c as Element).localName ?? '', at);
    if (i < 0) return null;
    at = i + 1;
  }
  const inf = el(nfe, 'infNFe');
  if (!inf) return null;
  const ide = el(inf, 'ide');
  const emit = el(inf, 'emit');
  const destNode = el(inf, 'dest');
  const id = inf.getAttribute('Id') ?? '';
  const t = (within: Element | null, name: string) => text(el(within, name)) ?? '';
  const destKind = destNode ? (['CNPJ', 'CPF'] as const).find((k) => el(destNode, k)) : undefined;
  const supl = el(nfe, 'infNFeSupl');
  return {
    id,
    accessKey: id.startsWith('NFe') ? id.slice(3) : '',
    cUF: t(ide, 'cUF'), cNF: t(ide, 'cNF'), mod: t(ide, 'mod'), serie: t(ide, 'serie'), nNF: t(ide, 'nNF'),
    dhEmi: t(ide, 'dhEmi'), tpEmis: t(ide, 'tpEmis'), cDV: t(ide, 'cDV'), tpAmb: t(ide, 'tpAmb'),
    dhCont: text(el(ide, 'dhCont')), xJust: text(el(ide, 'xJust')),
    emitCnpj: text(el(emit, 'CNPJ')),
    vNF: t(el(el(inf, 'total'), 'ICMSTot'), 'vNF'),
    dest: destNode && destKind ? { kind: destKind, id: t(destNode, destKind) } : null,
    qrCode: text(el(supl, 'qrCode'))?.trim() || null,
    urlChave: text(el(supl, 'urlChave'))?.trim() || null,
    // The Signature that matters is NFe's own last child (docs/fiscal/signature.md), after infNFe.
    signed: el(nfe, 'Signature') !== null,
    ide: { cUF: t(ide, 'cUF'), ...Object.fromEntries(OFFLINE_IDE_LEAVES.map((leaf) => [leaf, text(el(ide, leaf))])) } as OfflineIdeValues,
  };
}

/** Reads an NFe text strictly (see OFFLINE_XML_RULES); null when it is not one the intake accepts. */
export function readOfflineNfce(xml: string): OfflineNfceFacts | null {
  const parsed = parseStrictDocument(xml, OFFLINE_XML_RULES);
  return parsed.ok ? offlineFactsOf(parsed.root) : null;
}

export interface OfflineRulesContext {
  now: Date;
  /** The issuer the note is for: its CNPJ and environment (1 production, 2 homologation). */
  issuerCnpj: string;
  tpAmb: 1 | 2;
  /** The series the gateway numbers for this issuer: its numbers stay gap-free, the POS keeps out (docs/decisions.md#api-conventions). */
  gatewaySerie: number;
  /** How the fields are named in the answer: `xml.ide.` for the XML form, the JSON names for the sale form. */
  field: (xmlName: OfflineField) => string;
}

export type OfflineField = 'Id' | 'mod' | 'tpEmis' | 'dhCont' | 'xJust' | 'CNPJ' | 'tpAmb' | 'serie' | 'nNF' | 'cNF' | 'dhEmi' | OfflineIdeLeaf;

// A POS clock a few minutes ahead of ours is a clock, not a forgery; further ahead is refused.
export const OFFLINE_CLOCK_SKEW_MS = 5 * 60_000;
// MOC B26-10 (244, NT 2018.001): a taxpayer's series are 0-889 and 920-969; 890-919 are the fisco's
// (NF avulsa), and 920-969 belong to issuers identified by CPF: none of them a point of sale's here.
const RESERVED_SERIES_FROM = 890;

/**
 * The rules an offline NFC-e meets before the gateway keeps it (docs/fiscal/access-key.md, docs/fiscal/cnf.md, docs/fiscal/offline-contingency.md, docs/fiscal/offline-contingency.md#autopilot). Every problem
 * is reported, each naming its field. Lateness is not one: see offlineDeadline.
 */
export function offlineNfceProblems(f: OfflineNfceFacts, ctx: OfflineRulesContext): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const add = (field: OfflineField, message: string, rule?: string) => out.push({ field: ctx.field(field), message, ...(rule ? { rule } : {}) });
  if (f.mod !== '65') add('mod', `is ${f.mod}; only an NFC-e (model 65) is issued offline`);
  if (f.tpEmis !== '9') add('tpEmis', `is ${f.tpEmis}; an NFC-e issued offline carries tpEmis 9 (FACTS 10)`);
  // docs/fiscal/offline-contingency.md, MOC B28 (557): dhCont and xJust are mandatory in contingency; dhCont not after dhEmi.
  const emitted = Date.parse(f.dhEmi);
  if (!f.dhCont) add('dhCont', 'is required in offline contingency (when the point of sale lost the authority) (MOC B28-20, 557)', 'B28-20');
  else if (Number.isNaN(Date.parse(f.dhCont))) add('dhCont', `${f.dhCont} is not a date-time`);
  else if (!Number.isNaN(emitted) && Date.parse(f.dhCont) > emitted) add('dhCont', `${f.dhCont} is after dhEmi ${f.dhEmi}: contingency starts before the sale it covers`);
  const just = (f.xJust ?? '').trim();
  if (just.length < 15 || just.length > 256) add('xJust', 'must say why the authority could not be reached, 15 to 256 characters', f.xJust === null ? 'B28-20' : undefined);
  if ((f.emitCnpj ?? '') !== ctx.issuerCnpj) add('CNPJ', `${f.emitCnpj ?? '(none)'} is not the CNPJ of the issuer (${ctx.issuerCnpj})`);
  if (f.tpAmb !== String(ctx.tpAmb)) add('tpAmb', `is ${f.tpAmb} but the issuer emits in ${ctx.tpAmb === 1 ? 'production (1)' : 'homologation (2)'}`);
  const serie = Number(f.serie);
  if (serie === ctx.gatewaySerie) {
    add('serie', `${serie} is the series the gateway numbers for this issuer; a point of sale issues offline in a series of its own so the gateway's numbers stay gap-free`);
  } else if (serie >= RESERVED_SERIES_FROM) {
    add('serie', `${serie} is not a series of the point of sale (890-919 are the fisco's, 920-969 issuers identified by CPF, 970-999 nobody's; MOC B26-10, 244); use one below 890`, 'B26-10');
  }
  if (!isValidCnf(f.cNF, Number(f.nNF))) add('cNF', `${f.cNF} is refused by NT 2019.001 B03-10 (equal to nNF or a forbidden sequence; 897)`, 'B03-10');
  if (Number.isNaN(emitted)) add('dhEmi', `${f.dhEmi} is not a date-time`);
  else if (emitted > ctx.now.getTime() + OFFLINE_CLOCK_SKEW_MS) add('dhEmi', `${f.dhEmi} is in the future (MOC B09-10, 703)`, 'B09-10');
  for (const p of offlineIdeProblems(f.ide)) add(p.leaf, p.message, p.rule);
  const keyProblem = accessKeyProblem(f);
  if (keyProblem) add('Id', keyProblem);
  return out;
}

/** The key against the ide fields (docs/fiscal/access-key.md: cStat 502, 236, 562); null when they agree. */
export function accessKeyProblem(f: OfflineNfceFacts): string | null {
  const parts = parseAccessKey(f.accessKey);
  if (!parts) return `${f.id} is not "NFe" followed by a 44-digit key with a right check digit`;
  const aamm = f.dhEmi.slice(2, 4) + f.dhEmi.slice(5, 7);
  const expected: Record<string, string> = {
    cUF: f.cUF, AAMM: aamm, CNPJ: (f.emitCnpj ?? '').padStart(14, '0'), mod: f.mod, serie: f.serie.padStart(3, '0'),
    nNF: f.nNF.padStart(9, '0'), tpEmis: f.tpEmis, cNF: f.cNF.padStart(8, '0'), cDV: f.cDV,
  };
  const actual: Record<string, string> = {
    cUF: parts.cUF, AAMM: parts.aamm, CNPJ: parts.cnpj, mod: parts.mod, serie: parts.serie, nNF: parts.nNF, tpEmis: parts.tpEmis, cNF: parts.cNF, cDV: parts.cDV,
  };
  const differ = Object.keys(expected).filter((k) => expected[k] !== actual[k]);
  return differ.length === 0 ? null : `the access key disagrees with the document on ${differ.join(', ')}`;
}

// docs/fiscal/offline-contingency.md, docs/fiscal/offline-contingency.md#sefaz-guidance: the deadline is UF dependent (24 h in PE, the next business day in MG); the gateway
// holds itself to the shorter, 24 hours from dhEmi, as its own contingency does (contingency-settings.ts).
export const OFFLINE_DEADLINE_MS = 24 * 3600_000;

/**
 * The transmission deadline of an offline NFC-e and whether it has passed. A late note is still
 * accepted and transmitted: it was printed and handed to the consumer, and the authority may authorize
 * it with cStat 150 "autorizado fora de prazo" (docs/fiscal/offline-contingency.md, docs/fiscal/offline-contingency.md#sefaz-guidance); refusing it here would leave a sale
 * that can never be regularized.
 */
export function offlineDeadline(dhEmi: string, now: Date): { deadline: Date; late: boolean } {
  const deadline = new Date(Date.parse(dhEmi) + OFFLINE_DEADLINE_MS);
  return { deadline, late: now.getTime() > deadline.getTime() };
}
