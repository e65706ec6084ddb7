// Compiled XSD validators, one per (package, root schema), built on first use and kept for the process.
// The official schemas are multi-file (xs:include/xs:import of tiposBasico, xmldsig...), so libxml2-wasm
// needs its file-system input providers to resolve them relative to the root schema's path.
import { isUtf8 } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XmlDocument, XsdValidator } from 'libxml2-wasm';
import { xmlRegisterFsInputProviders } from 'libxml2-wasm/lib/nodejs.mjs';
import { FISCAL_ASSETS_DIR } from '../../../kernel/paths.js';

export type SchemaPackage = 'PL_009' | 'PL_010' | 'PL_010e' | 'NFSe_v1.01';

/**
 * PL_009 = PL_009q (the layout before the tax reform); PL_010 = NT 2025.002 v1.30 RTC + alphanumeric CNPJ;
 * PL_010e = NT 2025.002 v1.40, the NF-e/NFC-e document schemas only (nfe, enviNFe, procNFe, retEnviNFe:
 * events and inutilização take PL_009's or PL_010's by date, schema-packages.ts); NFSe_v1.01 = NFS-e Padrão Nacional package of 09/02/2026 with
 * the TSSerieDPS anchor patch (SOURCES.md, docs/fiscal/nfse-national.md). Which one judges a document: schema-packages.ts.
 */
export const SCHEMA_DIRS: Record<SchemaPackage, string> = {
  PL_009: join(FISCAL_ASSETS_DIR, 'schemas', 'PL_009_V4'),
  PL_010: join(FISCAL_ASSETS_DIR, 'schemas', 'PL_010_V1.30'),
  PL_010e: join(FISCAL_ASSETS_DIR, 'schemas', 'PL_010_V1.40'),
  'NFSe_v1.01': join(FISCAL_ASSETS_DIR, 'schemas', 'NFSe_v1.01'),
};

/** Whether a package ships this root schema (PL_009 has none of the reform event schemas, PL_010e only the NF-e's). */
export function hasSchema(pkg: SchemaPackage, file: string): boolean {
  return /^[\w.-]+\.xsd$/.test(file) && existsSync(join(SCHEMA_DIRS[pkg], file));
}

const validators = new Map<string, XsdValidator>();
let providersRegistered = false;

export function compiledSchema(pkg: SchemaPackage, file: string): XsdValidator {
  if (!/^[\w.-]+\.xsd$/.test(file)) throw new Error(`invalid schema file name: ${file}`);
  const cacheKey = `${pkg}/${file}`;
  const cached = validators.get(cacheKey);
  if (cached) return cached;
  if (!providersRegistered) providersRegistered = xmlRegisterFsInputProviders() || providersRegistered;
  const path = join(SCHEMA_DIRS[pkg], file);
  const schemaDoc = XmlDocument.fromBuffer(utf8Schema(readFileSync(path)), { url: path });
  try {
    const validator = XsdValidator.fromDoc(schemaDoc);
    validators.set(cacheKey, validator);
    return validator;
  } finally {
    schemaDoc.dispose(); // the compiled validator keeps its own copy of the schema
  }
}

/** Frees every compiled schema (tests, shutdown). */
export function disposeCompiledSchemas(): void {
  for (const validator of validators.values()) validator.dispose();
  validators.clear();
}

/**
 * The official retEnvConfRecebto_v1.00.xsd (both packages) is ISO-8859-1 text under an UTF-8
 * declaration (docs/fiscal/nfe-model-55.md#recipient-manifestation), which libxml2 refuses: a root schema that is not valid UTF-8 is read as
 * Latin-1 and handed over as the UTF-8 its declaration promises.
 */
export function utf8Schema(bytes: Buffer): Buffer {
  return isUtf8(bytes) ? bytes : Buffer.from(bytes.toString('latin1'), 'utf8');
}
