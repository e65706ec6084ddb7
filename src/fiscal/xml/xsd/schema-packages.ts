// Which official schema package judges a document: the one the authorities had in force on the
// document's date (dhEmi), in its environment. The table is data; docs/fiscal/schema-packages.md
// shows it with its sources (assets/fiscal/SOURCES.md says where each package's files came from).
import type { SchemaPackage } from './schema-cache.js';

/** 55 NF-e, 65 NFC-e, 'nfse' the national NFS-e (DPS). */
export type SchemaModel = 55 | 65 | 'nfse';

export interface LayoutRevision {
  /** The layout the authorities put in force. */
  layout: string;
  /** First day in production (tpAmb 1), Brasília time from 00:00; null = in force from the start of the table. */
  production: string | null;
  /** First day in homologation (tpAmb 2); null = no date of its own was found, the production date is used. */
  homologation: string | null;
  /** The bundled package that validates documents of that period. */
  pkg: SchemaPackage;
  /** False when the layout's own package could not be obtained and `pkg` stands in for it. */
  bundled: boolean;
  source: string;
}

/** NF-e and NFC-e (one layout, leiauteNFe 4.00), oldest first. */
export const NFE_LAYOUTS: readonly LayoutRevision[] = [
  {
    layout: 'PL_009q (NT 2024.003 v1.03), before the tax reform groups',
    production: null,
    homologation: null,
    pkg: 'PL_009',
    bundled: true,
    source: 'assets/fiscal/SOURCES.md, schemas/PL_009_V4',
  },
  {
    layout: 'NT 2025.002 v1.30 (PL_010: IBS/CBS/IS groups; bundled revision also has the alphanumeric CNPJ of NT 2026.004)',
    production: '2025-10-06',
    homologation: null,
    pkg: 'PL_010',
    bundled: true,
    source: 'NT 2025.002 v1.20 cronograma: production may carry the reform groups from 06/10/2025 (as summarised by inventti.com.br, "Reforma Tributária: publicada a versão 1.20 da NT 2025.002")',
  },
  {
    layout: 'NT 2025.002 v1.40 (PL_010e: gALCZFMCBS, cIndOp, refDFeAnt, ISUFEmit, adRemIS)',
    production: '2026-08-03',
    homologation: '2026-07-01',
    pkg: 'PL_010e',
    bundled: true,
    source: 'NT 2025.002 v1.51, cronograma of v1.40: test environment by 01/07/2026 (may vary by state), production 03/08/2026 (as transcribed in sinete-dev/sinete packages/schemas/src/data/vigencia.json @ 515861a)',
  },
  {
    layout: 'NT 2025.002 v1.50 (PL_010f: monophase groups split ad rem / ad valorem, gpBioDiferenca)',
    production: '2026-11-03',
    homologation: '2026-09-01',
    pkg: 'PL_010e',
    bundled: false,
    source: 'NT 2025.002 v1.51, cronograma of v1.50: test 01/09/2026, production 03/11/2026 (same transcription); package PL_010f_v1.04 (published 31/08/2026) not found in any store we could read: only 3 of its 5 files are (SOURCES.md)',
  },
  {
    layout: 'NT 2025.002 v1.52 + NT 2026.007 v1.10 + NT 2026.008 v1.00 (vUnComLiq, vProdLiq, vProdLiqTot, ICMSPrevistoPagtoAntecip)',
    production: '2026-11-16',
    homologation: '2026-10-26',
    pkg: 'PL_010e',
    bundled: false,
    source: 'SVRS/ENCAT notice postponing these versions to homologation 26/10/2026 and production 16/11/2026 (as quoted in matheusmorante/moveismorantehub api/nfe/schemas/README.md @ 47eafde); no schema package of them found',
  },
];

/**
 * The messages that are not an NF-e (events, inutilização, status, queries, distribution), oldest first.
 * They carry no document date: the web service judges them with the schemas it runs when they arrive.
 * PL_009 has no reform (RTC) event schema: those are PL_010's at every date (`messageSchemaPackage`).
 */
export const NFE_MESSAGE_LAYOUTS: readonly LayoutRevision[] = [
  {
    layout: 'PL_009q messages (numeric CNPJ and access keys)',
    production: null,
    homologation: null,
    pkg: 'PL_009',
    bundled: true,
    source: 'assets/fiscal/SOURCES.md, schemas/PL_009_V4',
  },
  {
    layout: 'NT 2026.004 v1.01 (alphanumeric CNPJ in events, inutilização and queries)',
    production: '2026-07-01',
    homologation: '2026-06-15',
    pkg: 'PL_010',
    bundled: true,
    source: 'NT 2026.004 v1.01 cronograma: test environment until 15/06/2026, production 01/07/2026 (as transcribed in sinete-dev/sinete packages/schemas/src/data/vigencia.json @ 515861a, package PL_010d_v1.03); files: the CNPJ-alfa revision of schemas/PL_010_V1.30',
  },
];

/** The national NFS-e (homologation = produção restrita): one package bundled (no newer one could be read, SOURCES.md). */
export const NFSE_LAYOUTS: readonly LayoutRevision[] = [
  {
    layout: 'NFS-e Padrão Nacional XSD v1.01 of 09/02/2026',
    production: null,
    homologation: null,
    pkg: 'NFSe_v1.01',
    bundled: true,
    source: 'assets/fiscal/SOURCES.md, schemas/NFSe_v1.01',
  },
  {
    layout: 'NFS-e XSD v1.01 of 27/07/2026 (alphanumeric CNPJ)',
    production: '2026-08-10',
    homologation: '2026-07-27',
    pkg: 'NFSe_v1.01',
    bundled: false,
    source: 'Portal NFS-e news of 28/07/2026: schemas for the alphanumeric CNPJ in produção restrita from 27/07/2026, in production from 10/08/2026 (as transcribed in sinete-dev/sinete packages/schemas/src/data/vigencia.json @ 515861a); package esquemas-nfse-rtc-v1-01-20260727.zip not found',
  },
];

/** The layout in force on `date` (an ISO date-time with offset, or a Date) for tpAmb 1 (production) or 2 (homologation). */
export function layoutInForce(model: SchemaModel, date: string | Date, tpAmb: 1 | 2 = 1): LayoutRevision {
  return revisionAt(model === 'nfse' ? NFSE_LAYOUTS : NFE_LAYOUTS, date, tpAmb);
}

/** The package that judges a message that is not an NF-e (event, inutilização, query) arriving at `date`. */
export function messagePackageFor(date: string | Date, tpAmb: 1 | 2 = 1): SchemaPackage {
  return revisionAt(NFE_MESSAGE_LAYOUTS, date, tpAmb).pkg;
}

function revisionAt(table: readonly LayoutRevision[], date: string | Date, tpAmb: 1 | 2): LayoutRevision {
  const at = typeof date === 'string' ? Date.parse(date) : date.getTime();
  // A date that cannot be read gets today's layout: the document fails its schema on that field anyway.
  if (Number.isNaN(at)) return table[table.length - 1]!;
  let current = table[0]!;
  for (const revision of table) {
    const from = tpAmb === 2 ? (revision.homologation ?? revision.production) : revision.production;
    if (from === null || at >= Date.parse(`${from}T00:00:00-03:00`)) current = revision;
  }
  return current;
}

/** The bundled package that validates a document of `model` dated `date` (its dhEmi) in environment `tpAmb`. */
export function schemaPackageFor(model: SchemaModel, date: string | Date, tpAmb: 1 | 2 = 1): SchemaPackage {
  return layoutInForce(model, date, tpAmb).pkg;
}
