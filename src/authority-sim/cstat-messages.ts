import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FISCAL_ASSETS_DIR } from '../kernel/paths.js';
import { DELIVERY_EVENT_MESSAGES } from './delivery-event-rules.js';
import { EPEC_MESSAGES } from './epec-rules.js';
import { EVENT_CANCELLATION_MESSAGES } from './reform-event-cancel-rules.js';

let table: Map<number, string> | undefined;

// Same words the authorities answer with (MOC table as transcribed in webservices/cstat.json).
const OVERRIDES: Record<number, string> = {
  // The table's 501 text is the NF-e one (7 days); NFC-e windows are minutes (Ajuste SINIEF 19/16 cl. 15).
  501: 'Rejeição: Pedido de Cancelamento intempestivo (prazo de cancelamento excedido)',
  // Missing from cstat.json; the words of MOC 7.0 Anexo I, rules ZD01-10 and ZD02-10 (NT 2018.005).
  972: 'Rejeição: Obrigatória as informações do responsável técnico',
  973: 'Rejeição: CNPJ do responsável técnico inválido',
};

/** xMotivo for a cStat, with the table's bracketed placeholders ([nRec:999...]) removed. */
export function motivo(cStat: number): string {
  if (OVERRIDES[cStat]) return OVERRIDES[cStat];
  if (DELIVERY_EVENT_MESSAGES[cStat]) return DELIVERY_EVENT_MESSAGES[cStat];
  if (EVENT_CANCELLATION_MESSAGES[cStat]) return EVENT_CANCELLATION_MESSAGES[cStat];
  if (EPEC_MESSAGES[cStat]) return EPEC_MESSAGES[cStat];
  table ??= new Map(
    (
      JSON.parse(readFileSync(join(FISCAL_ASSETS_DIR, 'webservices', 'cstat.json'), 'utf8')) as Array<{
        cod: string;
        msg: string;
      }>
    ).map((r) => [Number(r.cod), r.msg]),
  );
  const msg = table.get(cStat);
  if (!msg) return `Rejeição: código ${cStat}`;
  return msg.replace(/\s*\[[^\]]*:\s*9+\]/g, '').trim();
}

/** xMotivo followed by the facts SEFAZ appends in brackets, e.g. [nProt:...][dhAut:...]. */
export function motivoWith(cStat: number, facts: Record<string, string>): string {
  return motivo(cStat) + Object.entries(facts).map(([k, v]) => `[${k}:${v}]`).join('');
}
