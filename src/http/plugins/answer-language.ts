import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { preferredLanguage } from '../accept-language.js';
import { localizeRejection } from '../i18n/localize.js';

// A note's rejection object (NFC-e, NF-e, NFS-e, an inutilization), in a record or a
// list, says its hint in the language Accept-Language asks for. The stored row keeps the English
// hint (webhooks, written without a reader, send it: docs/guides/api.md); the authority's message is
// never translated. Error answers are said in error-handler.ts.

const MAX_DEPTH = 4;

function localizeIn(value: unknown, depth: number, lang: 'pt-BR'): { value: unknown; changed: boolean } {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return { value, changed: false };
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = localizeIn(v, depth + 1, lang);
      changed ||= r.changed;
      return r.value;
    });
    return changed ? { value: out, changed } : { value, changed: false };
  }
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(value)) {
    let next: unknown;
    if (k === 'rejection' && v !== null && typeof v === 'object' && 'hint' in v) next = localizeRejection(lang, v);
    else if (v !== null && typeof v === 'object') next = localizeIn(v, depth + 1, lang).value;
    else continue;
    if (next !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = next;
  }
  return out ? { value: out, changed: true } : { value, changed: false };
}

export const answerLanguagePlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preSerialization', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (payload === null || typeof payload !== 'object' || reply.statusCode >= 400) return payload;
      const lang = preferredLanguage(request.headers['accept-language']);
      if (lang !== 'pt-BR') return payload;
      const { value, changed } = localizeIn(payload, 0, lang);
      if (changed) {
        const vary = reply.getHeader('vary');
        reply.header('Content-Language', lang).header('Vary', vary ? `${String(vary)}, Accept-Language` : 'Accept-Language');
      }
      return value;
    });
  },
  { name: 'answer-language' },
);
