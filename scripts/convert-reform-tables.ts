// Converts the official CST IBS/CBS + cClassTrib spreadsheet (Informe Técnico 2025.002, published on the
// NF-e portal and on dfe-portal.svrs.rs.gov.br as "cClassTrib YYYY-MM-DD.xlsx") into the data files the
// gateway loads: assets/fiscal/reform/cst.json and classification.json (docs/fiscal/reform-tables.md).
//   npx tsx scripts/convert-reform-tables.ts "/path/cClassTrib 2026-06-22.xlsx" [out-dir]
// rates.json is not in the spreadsheet: it is written by hand from the law (same doc).
// Every header is checked by name, so a spreadsheet whose columns moved is refused, not misread.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';

const [input, outArg] = process.argv.slice(2);
if (!input) throw new Error('usage: tsx scripts/convert-reform-tables.ts <cClassTrib YYYY-MM-DD.xlsx> [out-dir]');
const outDir = resolve(outArg ?? 'assets/fiscal/reform');
const bytes = readFileSync(input);
const revision = /(\d{4}-\d{2}-\d{2})/.exec(basename(input))?.[1];
if (!revision) throw new Error(`the file name should carry the table's date (cClassTrib 2026-06-22.xlsx): ${basename(input)}`);

/** The entries of a zip file (an .xlsx is one), by name. */
function unzip(buf: Buffer): Map<string, Buffer> {
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a zip file');
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(at + 10);
    const size = buf.readUInt32LE(at + 20);
    const nameLen = buf.readUInt16LE(at + 28);
    const extra = buf.readUInt16LE(at + 30);
    const comment = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLen);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + size);
    files.set(name, method === 8 ? inflateRawSync(raw) : raw);
    at += 46 + nameLen + extra + comment;
  }
  return files;
}

const zip = unzip(bytes);
/** The spreadsheet's XML as fast-xml-parser returns it: untyped, read field by field below. */
type Xml = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const xml = new XMLParser({ ignoreAttributes: false, parseTagValue: false, parseAttributeValue: false, trimValues: false, attributeNamePrefix: '', textNodeName: '#text', isArray: (n) => ['si', 'r', 'row', 'c', 'sheet', 'Relationship'].includes(n) });
const part = (name: string) => {
  const b = zip.get(name);
  if (!b) throw new Error(`${name} missing from the spreadsheet`);
  return xml.parse(b.toString('utf8')) as Record<string, Xml>;
};
const text = (node: Xml): string => (node === undefined ? '' : typeof node === 'object' ? String(node['#text'] ?? '') : String(node));
const shared: string[] = (part('xl/sharedStrings.xml').sst.si as Xml[]).map((si) => (si.t !== undefined ? text(si.t) : (si.r as Xml[]).map((r) => text(r.t)).join('')));
const rels = new Map<string, string>((part('xl/_rels/workbook.xml.rels').Relationships.Relationship as Xml[]).map((r) => [r.Id, r.Target]));

type Row = Array<string | undefined>;
function sheet(name: string): Row[] {
  const entry = (part('xl/workbook.xml').workbook.sheets.sheet as Xml[]).find((s) => s.name === name);
  if (!entry) throw new Error(`sheet "${name}" not found`);
  const target = String(rels.get(entry['r:id']));
  const rows = (part(`xl/${target.replace(/^\/?xl\//, '')}`).worksheet.sheetData.row ?? []) as Xml[];
  return rows.map((r) => {
    const out: Row = [];
    for (const c of (r.c ?? []) as Xml[]) {
      const col = [...String(c.r).replace(/\d+$/, '')].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
      const v = c.t === 's' ? shared[Number(text(c.v))] : c.t === 'inlineStr' ? text(c.is?.t) : c.v === undefined ? undefined : text(c.v);
      out[col] = v === undefined ? undefined : v.trim();
    }
    return out;
  });
}

const sheetNames = (part('xl/workbook.xml').workbook.sheets.sheet as Xml[]).map((s) => String(s.name));
const cstSheet = sheetNames.find((n) => n.startsWith('CST'));
const classSheet = sheetNames.find((n) => n.startsWith('cClass'));
if (!cstSheet || !classSheet) throw new Error(`sheets "CST ..." and "cClass ..." expected, found ${sheetNames.join(', ')}`);

/** Column index by the header's name (spaces removed: the CST sheet writes "ind_ gCredPresIBSZFM"). */
function columns(header: Row, names: string[]): Record<string, number> {
  const norm = header.map((h) => (h ?? '').replace(/\s+/g, ''));
  return Object.fromEntries(names.map((n) => {
    const i = norm.indexOf(n.replace(/\s+/g, ''));
    if (i < 0) throw new Error(`column "${n}" not found in ${JSON.stringify(header)}`);
    return [n, i];
  }));
}
const flag = (v: string | undefined, where: string): 0 | 1 => {
  if (v === '1' || v === '0') return Number(v) as 0 | 1;
  throw new Error(`${where}: indicator ${JSON.stringify(v)} is not 0 or 1`);
};
/** Excel day serial (1900 system: day 25569 is 1970-01-01) -> YYYY-MM-DD. */
const day = (serial: string | undefined, where: string): string => {
  if (!serial || !/^\d+$/.test(serial)) throw new Error(`${where}: date ${JSON.stringify(serial)} is not a day serial`);
  return new Date((Number(serial) - 25569) * 86_400_000).toISOString().slice(0, 10);
};
const nextDay = (iso: string): string => new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

const CST_COLUMNS = ['CST-IBS/CBS', 'Descrição CST-IBS/CBS', 'ind_gIBSCBS', 'ind_gIBSCBSMono', 'ind_gRed', 'ind_gDif', 'ind_gTransfCred', 'ind_gCredPresIBSZFM', 'ind_gAjusteCompet', 'ind_RedutorBC'];
const CLASS_INDICATORS = ['ind_gTribRegular', 'ind_gCredPresOper', 'ind_gMonoPadrao', 'ind_gMonoReten', 'ind_gMonoRet', 'ind_gMonoDif', 'ind_gpBioDiferenca', 'ind_gEstornoCred'];
const DOCUMENTS = { nfe: 'indNFe', nfce: 'indNFCe', nfse: 'indNFSe' } as const;
const CLASS_COLUMNS = ['CST-IBS/CBS', 'cClassTrib', 'Nome cClassTrib', 'Descrição cClassTrib', 'LC 214/25', 'Tipo de Alíquota', 'pRedIBS', 'pRedCBS',
  ...CLASS_INDICATORS, 'tpRBSN', 'dIniVig', 'dFimVig', 'DataAtualização', ...Object.values(DOCUMENTS), 'ANEXO', 'Link'];

const [classHeader, ...classRows] = sheet(classSheet);
const k = columns(classHeader!, CLASS_COLUMNS);
const updated = new Set<string>();
const classes = classRows.filter((r) => r[k.cClassTrib!]).map((r) => {
  const code = r[k.cClassTrib!]!;
  const where = `${classSheet} ${code}`;
  const validFrom = day(r[k.dIniVig!], `${where} dIniVig`);
  const end = r[k.dFimVig!];
  updated.add(day(r[k['DataAtualização']!], `${where} DataAtualização`));
  const article = r[k['LC 214/25']!];
  const anchor = /#art(\w+)$/.exec(r[k.Link!] ?? '')?.[1];
  return {
    code,
    cst: r[k['CST-IBS/CBS']!]!,
    name: r[k['Nome cClassTrib']!]!,
    description: r[k['Descrição cClassTrib']!]!,
    pRedIBS: Number(r[k.pRedIBS!]),
    pRedCBS: Number(r[k.pRedCBS!]),
    rateType: r[k['Tipo de Alíquota']!]!,
    ...Object.fromEntries(CLASS_INDICATORS.map((n) => [n, flag(r[k[n]!], `${where} ${n}`)])),
    tpRBSN: r[k.tpRBSN!] ?? null,
    documents: (Object.keys(DOCUMENTS) as Array<keyof typeof DOCUMENTS>).filter((d) => flag(r[k[DOCUMENTS[d]]!], `${where} ${DOCUMENTS[d]}`) === 1),
    validFrom,
    // The table's dFimVig is the last day in force; ours is the first day out of force (end exclusive).
    validUntil: end ? nextDay(day(end, `${where} dFimVig`)) : null,
    legalReference: article ? `LC 214/2025 ${article.replace(/^Arts?\./, (a) => a.toLowerCase())}` : anchor ? `LC 214/2025 art. ${anchor} (the table's link)` : 'LC 214/2025',
    annex: r[k.ANEXO!] ?? null,
    link: r[k.Link!] ?? null,
  };
});

const [cstHeader, ...cstRows] = sheet(cstSheet);
const c = columns(cstHeader!, CST_COLUMNS);
const csts = cstRows.filter((r) => /^\d{3}$/.test(r[c['CST-IBS/CBS']!] ?? '')).map((r) => {
  const cst = r[c['CST-IBS/CBS']!]!;
  const docs = new Set(classes.filter((x) => x.cst === cst).flatMap((x) => x.documents));
  return {
    cst,
    description: r[c['Descrição CST-IBS/CBS']!]!,
    ...Object.fromEntries(CST_COLUMNS.slice(2).map((n) => [n, flag(r[c[n]!], `${cstSheet} ${cst} ${n}`)])),
    // The CST sheet has no document columns: a CST serves the documents its classes serve.
    documents: (Object.keys(DOCUMENTS) as Array<keyof typeof DOCUMENTS>).filter((d) => docs.has(d)),
  };
});

const sha256 = createHash('sha256').update(bytes).digest('hex');
const source = `${basename(input)} (sha256 ${sha256}), sheets "${cstSheet}" and "${classSheet}", Informe Técnico 2025.002`;
const write = (file: string, body: object) => writeFileSync(join(outDir, file), `${JSON.stringify(body, null, 1)}\n`);
write('cst.json', { revision, source, csts });
write('classification.json', {
  revision,
  source,
  updated: [...updated].sort(),
  validity: 'validFrom is the first day in force (dIniVig); validUntil is the first day NOT in force (the table\'s dFimVig + 1 day), null while open',
  classes,
});
console.log(`${revision}: ${csts.length} CSTs, ${classes.length} classes -> ${outDir} (sha256 ${sha256})`);
