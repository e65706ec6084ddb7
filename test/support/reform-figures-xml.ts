import { DOMParser, type Element } from '@xmldom/xmldom';
import { schemaPackageFor } from '../../src/fiscal/xml/xsd/schema-packages.js';
import type { SchemaPackage } from '../../src/fiscal/xml/xsd/schema-cache.js';

// The IBS/CBS figures of an NF-e/NFC-e read back from its XML text with a parser we did not write
// (@xmldom/xmldom), in cents, for the reform worked cases and the reform property test.

const NFE_NS = 'http://www.portalfiscal.inf.br/nfe';

function child(parent: Element | undefined, name: string): Element | undefined {
  if (!parent) return undefined;
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 && (n as Element).localName === name) return n as Element;
  return undefined;
}

/** Element at a slash-separated path below `from`. */
function at(from: Element | undefined, path: string): Element | undefined {
  return path.split('/').reduce<Element | undefined>((node, name) => child(node, name), from);
}

/** Cents of the decimal text at `path`, or null when the element is absent. */
function centsAt(from: Element | undefined, path: string): number | null {
  const e = at(from, path);
  if (!e) return null;
  const text = (e.textContent ?? '').trim();
  // The layout's money types (TDec_1302, TDec1302RTC) are unsigned with 2 decimals.
  if (!/^[0-9]+(\.[0-9]{1,2})?$/.test(text)) throw new Error(`${path}: "${text}" is not a money value`);
  const [whole, frac = ''] = text.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

export interface ItemReformFigures {
  CST: string;
  cClassTrib: string;
  /** null: the item's IBSCBS carries no gIBSCBS (a code without rate, e.g. CST 410). */
  vBC: number | null;
  vIBSUF: number | null;
  vIBSMun: number | null;
  vIBS: number | null;
  vCBS: number | null;
}

export interface ReformTotalFigures {
  vBCIBSCBS: number;
  vIBSUF: number;
  vIBSMun: number;
  vIBS: number;
  vCBS: number;
}

export interface NoteReformFigures {
  dhEmi: string;
  mod: 55 | 65;
  tpAmb: 1 | 2;
  vNF: number;
  /** Per item: null when the item has no IBSCBS group. */
  items: (ItemReformFigures | null)[];
  /** Per item vIS (0 without IS). */
  itemIS: number[];
  total: ReformTotalFigures | null;
  vIS: number | null;
  vNFTot: number | null;
}

/** Reads the note's reform figures (cents) from its XML text. */
export function reformFiguresOf(xml: string): NoteReformFigures {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const inf = doc.getElementsByTagNameNS(NFE_NS, 'infNFe')[0] as Element | undefined;
  if (!inf) throw new Error('no infNFe');
  const ide = child(inf, 'ide');
  const dets: Element[] = [];
  for (let n = inf.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 && (n as Element).localName === 'det') dets.push(n as Element);
  const items = dets.map((d): ItemReformFigures | null => {
    const g = at(d, 'imposto/IBSCBS');
    if (!g) return null;
    return {
      CST: at(g, 'CST')?.textContent ?? '',
      cClassTrib: at(g, 'cClassTrib')?.textContent ?? '',
      vBC: centsAt(g, 'gIBSCBS/vBC'),
      vIBSUF: centsAt(g, 'gIBSCBS/gIBSUF/vIBSUF'),
      vIBSMun: centsAt(g, 'gIBSCBS/gIBSMun/vIBSMun'),
      vIBS: centsAt(g, 'gIBSCBS/vIBS'),
      vCBS: centsAt(g, 'gIBSCBS/gCBS/vCBS'),
    };
  });
  const total = child(inf, 'total');
  const tot = child(total, 'IBSCBSTot');
  return {
    dhEmi: at(ide, 'dhEmi')?.textContent ?? '',
    mod: Number(at(ide, 'mod')?.textContent) as 55 | 65,
    tpAmb: Number(at(ide, 'tpAmb')?.textContent) as 1 | 2,
    vNF: centsAt(total, 'ICMSTot/vNF') ?? 0,
    items,
    itemIS: dets.map((d) => centsAt(d, 'imposto/IS/vIS') ?? 0),
    total: tot
      ? {
          vBCIBSCBS: centsAt(tot, 'vBCIBSCBS') ?? 0,
          vIBSUF: centsAt(tot, 'gIBS/gIBSUF/vIBSUF') ?? 0,
          vIBSMun: centsAt(tot, 'gIBS/gIBSMun/vIBSMun') ?? 0,
          vIBS: centsAt(tot, 'gIBS/vIBS') ?? 0,
          vCBS: centsAt(tot, 'gCBS/vCBS') ?? 0,
        }
      : null,
    vIS: centsAt(total, 'ISTot/vIS'),
    vNFTot: centsAt(total, 'vNFTot'),
  };
}

/** The folder of assets/fiscal/schemas holding a bundled package (schema-cache.ts SCHEMA_DIRS). */
export const PACKAGE_FOLDER: Record<Exclude<SchemaPackage, 'NFSe_v1.01'>, 'PL_009_V4' | 'PL_010_V1.30' | 'PL_010_V1.40'> = {
  PL_009: 'PL_009_V4',
  PL_010: 'PL_010_V1.30',
  PL_010e: 'PL_010_V1.40',
};

/** The schema folder of the package in force on the note's own dhEmi and environment (schema-packages.ts). */
export function packageFolderOf(f: Pick<NoteReformFigures, 'mod' | 'dhEmi' | 'tpAmb'>): 'PL_009_V4' | 'PL_010_V1.30' | 'PL_010_V1.40' {
  const pkg = schemaPackageFor(f.mod, f.dhEmi, f.tpAmb);
  if (pkg === 'NFSe_v1.01') throw new Error('an NF-e has no NFS-e package');
  return PACKAGE_FOLDER[pkg];
}

/** The IBS/CBS figures (cents) Sefin wrote into an NFS-e: infNFSe/IBSCBS (TCRTCIBSCBS), not the embedded DPS's group. */
export function nfseIbsCbsFiguresOf(xml: string): { vBC: number | null; vIBSUF: number | null; vIBSMun: number | null; vIBSTot: number | null; vCBS: number | null; vTotNF: number | null } {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const inf = doc.getElementsByTagNameNS('http://www.sped.fazenda.gov.br/nfse', 'infNFSe')[0] as Element | undefined;
  const g = child(inf, 'IBSCBS');
  return {
    vBC: centsAt(g, 'valores/vBC'),
    vIBSUF: centsAt(g, 'totCIBS/gIBS/gIBSUFTot/vIBSUF'),
    vIBSMun: centsAt(g, 'totCIBS/gIBS/gIBSMunTot/vIBSMun'),
    vIBSTot: centsAt(g, 'totCIBS/gIBS/vIBSTot'),
    vCBS: centsAt(g, 'totCIBS/gCBS/vCBS'),
    vTotNF: centsAt(g, 'totCIBS/vTotNF'),
  };
}
