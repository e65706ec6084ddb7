import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { keyStorageStatus } from '../../../platform/security/key-storage-status.js';
import { secretBoxFor } from '../../../platform/security/secret-box-registry.js';
import { errorResponses } from '../../../kernel/errors.js';
import { Timestamp } from '../../schemas/common.js';
import { StorageMode } from '../../schemas/issuer.js';

const HsmStatus = Type.Object(
  {
    mode: StorageMode,
    master_key_id: Type.String({ description: 'Non-secret name of the master key that wraps new secrets', examples: ['mk_3f9a0c2e71b4d865'] }),
    healthy: Type.Boolean({ description: 'A wrap/unwrap round trip with the master key worked just now' }),
    checked_at: Timestamp,
  },
  { title: 'HsmStatus' },
);

export const hsmRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/hsm/status',
    {
      config: { scope: 'account:read' },
      schema: {
        tags: ['hsm'],
        summary: 'Status of the key storage that protects certificates and CSCs',
        response: { 200: HsmStatus, ...errorResponses(401, 403, 429) },
      },
    },
    async () => keyStorageStatus(secretBoxFor(app.ctx.config).provider, () => app.ctx.clock.now()),
  );
};
