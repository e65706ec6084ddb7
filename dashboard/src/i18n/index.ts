import { ptBR } from './pt-BR/index.js';

export type Strings = typeof ptBR;

/** The dashboard's words. pt-BR today; switching language is choosing another `Strings` here. */
export const t: Strings = ptBR;
export const LOCALE = 'pt-BR';

/** A sentence the gateway wrote in English (an error, a timeline line), in the dashboard's language when known (pt-BR/gateway.ts). */
export function gatewayText(text: string): string {
  for (const [pattern, say] of t.gateway) {
    const m = pattern.exec(text);
    if (m) return say(...m.slice(1));
  }
  return text;
}
