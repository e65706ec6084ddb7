import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/kernel/paths.js';

const run = promisify(execFile);

/** Writes text to a temporary file for a command-line tool. */
export function tempFile(name: string, content: string | Buffer): string {
  const path = join(mkdtempSync(join(tmpdir(), 'fg-')), name);
  writeFileSync(path, content);
  return path;
}

/** `xmllint --schema` with an official XSD; resolves to '' when valid, else the tool's complaint. */
export async function xmllint(xml: string, pkg: 'PL_009_V4' | 'PL_010_V1.30', xsd: string): Promise<string> {
  const file = tempFile('doc.xml', xml);
  try {
    await run('xmllint', ['--noout', '--schema', join(PROJECT_ROOT, 'assets/fiscal/schemas', pkg, xsd), file]);
    return '';
  } catch (err) {
    return (err as { stderr?: string }).stderr ?? String(err);
  }
}

/** `xmlsec1 --verify` with the Id attributes of NF-e documents; resolves to '' when every signature checks. */
export async function xmlsecVerify(xml: string): Promise<string> {
  const file = tempFile('doc.xml', xml);
  try {
    await run('xmlsec1', ['--verify', '--insecure', '--id-attr:Id', 'infNFe', '--id-attr:Id', 'infEvento', '--id-attr:Id', 'infInut', '--id-attr:Id', 'infProt', file]);
    return '';
  } catch (err) {
    return (err as { stderr?: string }).stderr ?? String(err);
  }
}
