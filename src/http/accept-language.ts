// Accept-Language (RFC 9110 12.5.4) reduced to the two languages the API speaks: Brazilian
// Portuguese for any `pt` tag the client prefers, English otherwise (and without the header).

import type { ApiLanguage } from './i18n/language.js';

export type { ApiLanguage };

export function preferredLanguage(header: string | undefined): ApiLanguage {
  if (!header) return 'en';
  let best: { lang: ApiLanguage; q: number } | null = null;
  for (const part of header.slice(0, 512).split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    const t = tag.trim().toLowerCase();
    const lang: ApiLanguage | null = t === 'pt' || t.startsWith('pt-') ? 'pt-BR' : t === 'en' || t.startsWith('en-') || t === '*' ? 'en' : null;
    if (lang && (!best || q > best.q)) best = { lang, q };
  }
  return best?.lang ?? 'en';
}
