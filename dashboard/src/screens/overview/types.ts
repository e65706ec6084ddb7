import type { paths } from '../../api/client.js';

/** GET /v1/overview's answer: each section is null when the member's role does not read it. */
export type Overview = paths['/v1/overview']['get']['responses'][200]['content']['application/json'];
export type DocumentCounts = NonNullable<Overview['documents']>;
export type CountLine = DocumentCounts['today'][number];
