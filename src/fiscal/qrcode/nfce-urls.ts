// Per-state NFC-e consultation addresses (docs/fiscal/qrcode.md): the QR code base URL (`NfeConsultaQR`) and the
// "consulta por chave" address printed on the DANFE (`infNFeSupl/urlChave`), for all 27 UFs and both
// environments. Data: assets/fiscal/webservices/sefaz_endpoints_v4_derived.json (derived from sped-nfe
// wsnfe_4.00_mod65.xml + uri_consulta_nfce.json, see assets/fiscal/SOURCES.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FISCAL_ASSETS_DIR } from '../../kernel/paths.js';

export type Uf =
  | 'AC' | 'AL' | 'AM' | 'AP' | 'BA' | 'CE' | 'DF' | 'ES' | 'GO' | 'MA' | 'MG' | 'MS' | 'MT' | 'PA'
  | 'PB' | 'PE' | 'PI' | 'PR' | 'RJ' | 'RN' | 'RO' | 'RR' | 'RS' | 'SC' | 'SE' | 'SP' | 'TO';
export type TpAmb = 1 | 2;

export interface NfceUrls {
  qrCodeBaseUrl: string;
  urlChave: string;
  /** QR layout the state's published table uses by default (2 or 3); see qrVersionFor for the date rules. */
  qrVersion: 2 | 3;
}

interface EnvironmentEntry {
  qrCode: { url: string; version: string };
  urlChave: string;
}
interface EndpointsFile {
  '65': Record<string, { cUF: string; homologacao: EnvironmentEntry; producao: EnvironmentEntry }>;
}

let table: Map<string, NfceUrls> | undefined;

function load(): Map<string, NfceUrls> {
  const file = join(FISCAL_ASSETS_DIR, 'webservices', 'sefaz_endpoints_v4_derived.json');
  const data = JSON.parse(readFileSync(file, 'utf8')) as EndpointsFile;
  const out = new Map<string, NfceUrls>();
  for (const [uf, entry] of Object.entries(data['65'])) {
    for (const [tpAmb, env] of [[1, entry.producao], [2, entry.homologacao]] as const) {
      out.set(`${uf}/${tpAmb}`, {
        qrCodeBaseUrl: env.qrCode.url.trim(),
        urlChave: env.urlChave.trim(),
        qrVersion: env.qrCode.version === '300' ? 3 : 2,
      });
    }
  }
  return out;
}

export function nfceUrls(uf: Uf | string, tpAmb: TpAmb): NfceUrls {
  table ??= load();
  const urls = table.get(`${uf.toUpperCase()}/${tpAmb}`);
  if (!urls) throw new Error(`no NFC-e consultation URLs for UF ${uf}, tpAmb ${tpAmb}`);
  return { ...urls };
}

export function knownUfs(): string[] {
  table ??= load();
  return [...new Set([...table.keys()].map((k) => k.slice(0, 2)))].sort();
}
