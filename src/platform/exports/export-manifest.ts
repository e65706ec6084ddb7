import type { ExportFile } from './export-files.js';

/** manifest.csv: one line per file of the ZIP (RFC 4180: comma, CRLF, fields quoted when needed), UTF-8. */
export const MANIFEST_HEADER = 'file,kind,key,model,serie,number,status,issued_at,value,protocol';

export function manifestLine(f: ExportFile): string {
  return [f.path, f.kind, f.key, f.model, f.serie, f.number, f.status, f.issued_at, f.value === null ? null : f.value.toFixed(2), f.protocol]
    .map((v) => csvField(v === null || v === undefined ? '' : String(v)))
    .join(',');
}

function csvField(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
