import { execFile } from 'node:child_process';
import { createHash, createPublicKey, verify, X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { XMLParser } from 'fast-xml-parser';
import { accessKeyCheckDigit } from '../../src/fiscal/layout/access-key.js';
import { mulDivRound, toScaled } from '../../src/kernel/decimal.js';
import { PROJECT_ROOT } from '../../src/kernel/paths.js';

// Independent checks of a built NFC-e: they re-read the XML text (not our model) and recompute.

const run = promisify(execFile);
const SCHEMAS = join(PROJECT_ROOT, 'assets/fiscal/schemas');

/** xmllint --schema over many files at once (schema loading is the slow part). Returns failures. */
export async function xmllintFailures(pkg: 'PL_009_V4' | 'PL_010_V1.30' | 'PL_010_V1.40' | 'NFSe_v1.01', files: string[], xsd = 'nfe_v4.00.xsd'): Promise<string> {
  if (files.length === 0) return '';
  try {
    await run('xmllint', ['--noout', '--schema', join(SCHEMAS, pkg, xsd), ...files], { maxBuffer: 64 * 1024 * 1024 });
    return '';
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? String(err);
    return stderr.split('\n').filter((l) => l && !l.endsWith(' validates')).slice(0, 20).join('\n');
  }
}

/**
 * xmllint of every file against PL_010 and against the v1.40 package (in force since 03/08/2026), and of
 * those that can be PL_009 against PL_009, 250 files a process, in parallel.
 */
export async function packageFailures(pl010: string[], pl009: string[]): Promise<string> {
  const chunks = (list: string[]) => Array.from({ length: Math.ceil(list.length / 250) }, (_, i) => list.slice(i * 250, i * 250 + 250));
  const results = await Promise.all([
    ...chunks(pl010).map((c) => xmllintFailures('PL_010_V1.30', c)),
    ...chunks([...pl010, ...pl009]).map((c) => xmllintFailures('PL_010_V1.40', c)),
    ...chunks(pl009).map((c) => xmllintFailures('PL_009_V4', c)),
  ]);
  return results.filter(Boolean).join('\n');
}

/**
 * xmlsec1 --verify over batches of files (one process per batch, batches in parallel). xmlsec1 stops
 * at the first failure of a batch, so the result lists every file it failed and nothing else.
 */
export async function xmlsecFailures(files: string[], batchSize = 250, idElements: readonly string[] = ['infNFe']): Promise<string[]> {
  const batches = Array.from({ length: Math.ceil(files.length / batchSize) }, (_, i) => files.slice(i * batchSize, (i + 1) * batchSize));
  const failed: string[] = [];
  await Promise.all(
    batches.map(async (batch) => {
      try {
        const { stderr } = await run('xmlsec1', ['--verify', '--insecure', ...idElements.flatMap((e) => ['--id-attr:Id', e]), ...batch], { maxBuffer: 64 * 1024 * 1024 });
        const verified = (stderr.match(/^OK$/gm) ?? []).length;
        if (verified !== batch.length) failed.push(`${batch.length - verified} unverified in batch starting ${batch[0]}`);
      } catch (err) {
        const stderr = (err as { stderr?: string }).stderr ?? String(err);
        failed.push(/failed to verify file "([^"]+)"/.exec(stderr)?.[1] ?? stderr.slice(0, 500));
      }
    }),
  );
  return failed;
}

const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => name === 'det' || name === 'detPag' });
const cents = (v: unknown): number => (v === undefined ? 0 : Number(toScaled(Number(v), 2)));
type Node = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
// The checks below re-read the same document one after the other: parse it once (half the parsing
// time of the 1000-document property test). The parsed tree is only read, never changed.
let lastXml: string | undefined;
let lastDoc: Node | undefined;
function parseOnce(xml: string): Node {
  if (xml !== lastXml) {
    lastDoc = parser.parse(xml) as Node;
    lastXml = xml;
  }
  return lastDoc!;
}

/** The one child group of ICMS (ICMS00, ICMSSN102...). */
const icmsGroup = (det: Node): Node => Object.values(det.imposto.ICMS)[0] as Node;
const sumOf = (dets: Node[], pick: (d: Node) => unknown) => dets.reduce((acc, d) => acc + cents(pick(d)), 0);

/** Problems found in the document's numbers (empty when everything adds up). */
export function totalsProblems(xml: string): string[] {
  const doc = parseOnce(xml);
  const inf = doc.NFe.infNFe as Node;
  const dets = inf.det as Node[];
  const tot = inf.total.ICMSTot as Node;
  const problems: string[] = [];
  const expect = (name: string, actual: number, wanted: number) => {
    if (actual !== wanted) problems.push(`${name}: ${actual} != ${wanted}`);
  };
  for (const d of dets) {
    const p = d.prod as Node;
    const vProd = Number(mulDivRound(toScaled(Number(p.qCom), 4), toScaled(Number(p.vUnCom), 10), 1_000_000_000_000n));
    expect(`det ${d['@_nItem']} vProd = qCom x vUnCom`, cents(p.vProd), vProd);
  }
  expect('vProd', cents(tot.vProd), sumOf(dets, (d) => d.prod.vProd));
  expect('vDesc', cents(tot.vDesc), sumOf(dets, (d) => d.prod.vDesc));
  expect('vBC', cents(tot.vBC), sumOf(dets, (d) => icmsGroup(d).vBC));
  expect('vICMS', cents(tot.vICMS), sumOf(dets, (d) => icmsGroup(d).vICMS));
  expect('vFCP', cents(tot.vFCP), sumOf(dets, (d) => icmsGroup(d).vFCP));
  expect('vBCST', cents(tot.vBCST), sumOf(dets, (d) => icmsGroup(d).vBCST));
  expect('vST', cents(tot.vST), sumOf(dets, (d) => icmsGroup(d).vICMSST));
  expect('vFCPST', cents(tot.vFCPST), sumOf(dets, (d) => icmsGroup(d).vFCPST));
  expect('vPIS', cents(tot.vPIS), sumOf(dets, (d) => (Object.values(d.imposto.PIS ?? {})[0] as Node | undefined)?.vPIS));
  expect('vCOFINS', cents(tot.vCOFINS), sumOf(dets, (d) => (Object.values(d.imposto.COFINS ?? {})[0] as Node | undefined)?.vCOFINS));
  expect('vTotTrib', cents(tot.vTotTrib), sumOf(dets, (d) => d.imposto.vTotTrib));
  const vNF = cents(tot.vProd) - cents(tot.vDesc) + cents(tot.vST) + cents(tot.vFCPST) + cents(tot.vFrete) + cents(tot.vSeg) + cents(tot.vOutro) + cents(tot.vII) + cents(tot.vIPI) + cents(tot.vIPIDevol) - cents(tot.vICMSDeson);
  expect('vNF formula', cents(tot.vNF), vNF);
  const pag = inf.pag as Node;
  expect('sum(vPag) - vTroco = vNF (767)', sumOf(pag.detPag, (p) => p.vPag) - cents(pag.vTroco), cents(tot.vNF));
  const ibs = inf.total.IBSCBSTot as Node | undefined;
  if (ibs) {
    expect('vIBS', cents(ibs.gIBS.vIBS), sumOf(dets, (d) => d.imposto.IBSCBS?.gIBSCBS?.vIBS));
    expect('vCBS', cents(ibs.gCBS.vCBS), sumOf(dets, (d) => d.imposto.IBSCBS?.gIBSCBS?.gCBS.vCBS));
    const vIS = sumOf(dets, (d) => d.imposto.IS?.vIS);
    expect('vIS', cents(inf.total.ISTot?.vIS), vIS);
    // NT 2025.002 VB01-10 (Exceção 1: not in 2025-2026) and W60-10: vNFTot = sum(vItem) = vNF (+ vIBS + vCBS + vIS from 2027).
    const taxesIn = Number(String(inf.ide.dhEmi).slice(0, 4)) >= 2027;
    expect('vNFTot', cents(inf.total.vNFTot), cents(tot.vNF) + (taxesIn ? cents(ibs.gIBS.vIBS) + cents(ibs.gCBS.vCBS) + vIS : 0));
  }
  return problems;
}

/** Key shape, check digit and agreement with ide/emit (236, 502, 562). */
export function keyProblems(xml: string): string[] {
  const doc = parseOnce(xml);
  const inf = doc.NFe.infNFe as Node;
  const key = String(inf['@_Id']).slice(3);
  const ide = inf.ide as Node;
  const problems: string[] = [];
  if (accessKeyCheckDigit(key.slice(0, 43)) !== Number(key[43])) problems.push('check digit');
  const fromFields = ide.cUF + ide.dhEmi.slice(2, 4) + ide.dhEmi.slice(5, 7) + inf.emit.CNPJ + ide.mod + String(ide.serie).padStart(3, '0') + String(ide.nNF).padStart(9, '0') + ide.tpEmis + ide.cNF + ide.cDV;
  if (fromFields !== key) problems.push(`Id ${key} != fields ${fromFields}`);
  if (Number(ide.cNF) === Number(ide.nNF)) problems.push('cNF equals nNF');
  return problems;
}

/** Recomputes the QR code parameters (hash for v2, RSA signature for v3 offline). */
export function qrProblems(xml: string, cscToken: string): string[] {
  const qr = /<qrCode>([^<]*)<\/qrCode>/.exec(xml)![1]!.replace(/&amp;/g, '&');
  const digest = /<DigestValue>([^<]*)<\/DigestValue>/.exec(xml)![1]!;
  const key = /Id="NFe([0-9A-Z]{44})"/.exec(xml)![1]!;
  const vNF = /<vNF>([^<]*)<\/vNF>/.exec(xml)![1]!;
  const dhEmi = /<dhEmi>([^<]*)<\/dhEmi>/.exec(xml)![1]!;
  const params = qr.slice(qr.indexOf('?p=') + 3).split('|');
  const problems: string[] = [];
  if (params[0] !== key) problems.push('QR key differs');
  const offline = key[34] === '9';
  if (params[1] === '2') {
    const joined = params.slice(0, -1).join('|');
    const hash = createHash('sha1').update(joined + cscToken).digest('hex');
    if (params.at(-1)!.toLowerCase() !== hash) problems.push('QR v2 hash differs');
    if (offline) {
      if (params[3] !== dhEmi.slice(8, 10)) problems.push('QR day differs');
      if (Number(params[4]) !== Number(vNF)) problems.push('QR vNF differs');
      if (params[5] !== Buffer.from(digest, 'ascii').toString('hex')) problems.push('QR digVal differs from the signature DigestValue');
    }
  } else if (params[1] === '3' && offline) {
    const cert = new X509Certificate(Buffer.from(/<X509Certificate>([^<]*)</.exec(xml)![1]!, 'base64'));
    const text = params.slice(0, -1).join('|');
    if (!verify('sha1', Buffer.from(text), createPublicKey(cert.publicKey.export({ format: 'pem', type: 'spki' })), Buffer.from(params.at(-1)!, 'base64'))) problems.push('QR v3 signature invalid');
  } else if (params[1] !== '3') problems.push(`QR version ${params[1]}`);
  return problems;
}
