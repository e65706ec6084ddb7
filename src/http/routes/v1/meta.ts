import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { searchMunicipios, UnknownCursorError } from '../../../fiscal/catalog/municipio-catalog.js';
import { listUfs, ufByCode } from '../../../fiscal/catalog/uf-catalog.js';
import { ApiError, errorResponses } from '../../../kernel/errors.js';
import { MunicipioList, MunicipioQuery, UfList } from '../../schemas/meta.js';

// Reference data: any valid API key may read it, whatever its scopes.
export const metaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['meta'];

  app.get(
    '/v1/ufs',
    {
      schema: {
        tags,
        summary: 'List the 27 states and their coverage',
        response: { 200: UfList, ...errorResponses(401, 429) },
      },
    },
    async () => ({ data: [...listUfs()] }),
  );

  app.get(
    '/v1/municipios',
    {
      schema: {
        tags,
        summary: 'Search the 5,571 municipalities (IBGE codes)',
        description: 'Ordered by name. `q` matches the start of the name, ignoring accents and case.',
        querystring: MunicipioQuery,
        response: { 200: MunicipioList, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const q = request.query;
      if (q.uf && !ufByCode(q.uf)) throw new ApiError('validation_error', 'Unknown state', [{ field: 'query.uf', message: `${q.uf} is not a UF` }]);
      try {
        return searchMunicipios({ uf: q.uf, q: q.q, limit: q.limit ?? 20, startingAfter: q.starting_after });
      } catch (err) {
        if (!(err instanceof UnknownCursorError)) throw err;
        throw new ApiError('validation_error', 'Unknown cursor', [{ field: 'query.starting_after', message: err.message }]);
      }
    },
  );
};
