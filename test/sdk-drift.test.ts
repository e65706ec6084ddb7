import { beforeAll, describe, expect, it } from 'vitest';
import { committedSchema, renderSchema, servedDocument } from './support/sdk-schema.js';

// The SDK's types are generated from GET /docs/json; a route or schema change that
// is not regenerated would ship an SDK whose types lie about the API.
describe('SDK types (sdk/src/schema.d.ts)', () => {
  let doc: Record<string, unknown>;
  beforeAll(async () => {
    doc = await servedDocument();
  });

  it('match the OpenAPI document the gateway serves', async () => {
    const served = await renderSchema(doc);
    const committed = await committedSchema();
    if (served !== committed) {
      const a = served.split('\n');
      const b = committed.split('\n');
      const line = a.findIndex((l, i) => l !== b[i]);
      expect.fail(
        'sdk/src/schema.d.ts differs from the served OpenAPI document: run `npm run sdk:generate` and commit the result.\n' +
          `First difference at line ${line + 1}:\n  served:    ${a[line] ?? '(end)'}\n  committed: ${b[line] ?? '(end)'}`,
      );
    }
  });

  it('the check notices a change of the document', async () => {
    // The comparison above must be able to fail: a document with one more field renders otherwise.
    const changed = structuredClone(doc);
    const schemas = (changed.components as { schemas: Record<string, { properties: Record<string, unknown> }> }).schemas;
    schemas.Error!.properties.hint = { type: 'string' };
    expect(await renderSchema(changed)).not.toBe(await committedSchema());
  });
});
