import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/kernel/paths.js';

const execFileAsync = promisify(execFile);

/** Runs a checking tool; a tool that is missing fails the test instead of passing it (a check that cannot run proves nothing). */
async function run(tool: string, args: string[]) {
  try {
    return await execFileAsync(tool, args);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`${tool} is not installed (.ci/run installs it with apt-get)`);
    throw err;
  }
}

/** Writes text to a temporary file for a command-line tool. */
export function tempFile(name: string, content: string | Buffer): string {
  const path = join(mkdtempSync(join(tmpdir(), 'fg-')), name);
  writeFileSync(path, content);
  return path;
}

/** `xmllint --schema` with an official XSD; resolves to '' when valid, else the tool's complaint. */
export async function xmllint(xml: string, pkg: 'PL_009_V4' | 'PL_010_V1.30' | 'PL_010_V1.40' | 'NFSe_v1.01', xsd: string): Promise<string> {
  const file = tempFile('doc.xml', xml);
  try {
    await run('xmllint', ['--noout', '--schema', join(PROJECT_ROOT, 'assets/fiscal/schemas', pkg, xsd), file]);
    return '';
  } catch (err) {
    return (err as { stderr?: string }).stderr ?? String(err);
  }
}

const NFE_ID_ELEMENTS = ['infNFe', 'infEvento', 'infInut', 'infProt'];
/** Elements whose Id attribute NFS-e signatures point to (DPS, NFS-e, event request, event). */
export const NFSE_ID_ELEMENTS = ['infDPS', 'infNFSe', 'infPedReg', 'infEvento'];

/** `xmlsec1 --verify` with the Id attributes of NF-e documents (or the ones given); resolves to '' when every signature checks. */
export async function xmlsecVerify(xml: string, idElements: readonly string[] = NFE_ID_ELEMENTS, nodeXPath?: string): Promise<string> {
  const file = tempFile('doc.xml', xml);
  // xmlsec1 checks the first Signature in document order unless --node-xpath names another one.
  const node = nodeXPath ? ['--node-xpath', nodeXPath] : [];
  try {
    await run('xmlsec1', ['--verify', '--insecure', ...idElements.flatMap((e) => ['--id-attr:Id', e]), ...node, file]);
    return '';
  } catch (err) {
    return (err as { stderr?: string }).stderr ?? String(err);
  }
}
