// npm run sdk:generate — writes sdk/src/schema.d.ts from the document the gateway serves at
// GET /docs/json. test/sdk-drift.test.ts fails until this is rerun after an API change.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { renderSchema, SDK_SCHEMA_FILE, servedDocument } from '../test/support/sdk-schema.js';

await writeFile(SDK_SCHEMA_FILE, await renderSchema(await servedDocument()));
console.log(`wrote ${fileURLToPath(SDK_SCHEMA_FILE)}`);
// The test app's database handle and the shared authority simulator keep the event loop alive.
process.exit(0);
