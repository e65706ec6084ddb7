import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../kernel/errors.js';
import { presentSearchResult, searchAccount } from '../../../platform/search/search.js';
import { SearchGate } from '../../../platform/search/search-gate.js';
import { ListOf } from '../../schemas/common.js';
import { SearchQuerySchema, SearchResultSchema } from '../../schemas/search.js';

export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // What one account's searches may take of this process (platform/search/search-gate.ts).
  const gate = new SearchGate();
  app.get(
    '/v1/search',
    {
      config: { scope: 'account:read' },
      schema: {
        tags: ['search'],
        summary: "Search the account's notes, issuers and events",
        description:
          'Full text over NFC-e, NF-e and NFS-e (item and service descriptions, customer/recipient/taker names, external_ref, ' +
          "rejection messages), issuers (legal and trade name), the notes' events (authority messages), NF-e received from suppliers " +
          '(supplier name, CNPJ, access key), correction letters (text, protocol), the manifestations on received NF-e (type, justification, ' +
          'protocol) and inutilizations (justification, protocol, numbers), ' +
          'of this account only. ' +
          'Words match without accents or case and by their Portuguese stem (`pao frances` finds "Pão Francês"); names also match ' +
          'when misspelt (trigram similarity); numbers match exactly or by prefix (CNPJ/CPF with or without punctuation, access ' +
          'keys, protocols, note numbers, external_ref). Best first: an exact identifier, then a prefix, then words and names; ' +
          'at most 500 matches are ranked and paged (every exact identifier, then the newest): narrow a broad query with the filters. ' +
          'Words are found up to ten years back, identifiers at any age; a phrase (`"pao frances"`) among the newest 2,000 documents holding all its words. ' +
          'An account runs at most 2 searches at once: one more is answered 429 `rate_limited` with Retry-After. ' +
          'Pages as the lists do (`limit`, `starting_after` = the last id of the previous page, `has_more`). Indexed in the ' +
          'transaction that writes the record: a note is findable as soon as its POST answers.',
        querystring: SearchQuerySchema,
        response: { 200: ListOf(SearchResultSchema, 'SearchResultList'), ...errorResponses(400, 401, 403, 422, 429) },
      },
    },
    async (request) => {
      const p = await gate.run(request.auth.accountId, () => searchAccount(app.ctx, request.auth.accountId, request.query));
      return { data: p.data.map(presentSearchResult), has_more: p.has_more };
    },
  );
};
