import type { paths } from '../../api/client.js';

export type Subscription = paths['/v1/billing/subscription']['get']['responses'][200]['content']['application/json'];
export type Invoice = paths['/v1/billing/invoices']['get']['responses'][200]['content']['application/json']['data'][number];

/** The API's money is integer BRL cents; format.ts speaks reais. */
export const reais = (cents: number) => cents / 100;
