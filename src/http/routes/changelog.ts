import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PROJECT_ROOT } from '../../kernel/paths.js';
import { CHANGELOG_PATH } from '../deprecation.js';

/** GET /changelog.md: the API's changelog, where a deprecated operation's Link header points. Public. */
export const changelogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const text = readFileSync(join(PROJECT_ROOT, 'CHANGELOG.md'), 'utf8');
  app.get(
    CHANGELOG_PATH,
    {
      config: { public: true },
      schema: { tags: ['meta'], summary: 'The API changelog (Markdown): changes, deprecations and their sunset dates', security: [], response: { 200: Type.String() } },
    },
    async (_request, reply) => reply.type('text/markdown; charset=utf-8').send(text),
  );
};
