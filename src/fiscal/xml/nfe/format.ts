import { formatCents, formatRate, formatTrimmed } from '../../../kernel/decimal.js';
import { leaf } from '../xml-text.js';

// Leaf writers for the layout's decimal types.

/** TDec_1302: money with 2 decimals. */
export const money = (name: string, cents: number): string => leaf(name, formatCents(cents));

/** TDec_1302Opc: money written only when non-zero (the type forbids 0). */
export const optMoney = (name: string, cents: number | undefined): string => (cents ? money(name, cents) : '');

/** TDec_0302a04: rate with 2 to 4 decimals. */
export const rate = (name: string, rate4: number): string => leaf(name, formatRate(rate4));

/** TDec_1104v: quantity, 4 decimals. */
export const quantity = (name: string, q4: bigint): string => leaf(name, formatTrimmed(q4, 4, 4));

/** TDec_1110v: unit value, 2 to 10 decimals. */
export const unitValue = (name: string, v10: bigint): string => leaf(name, formatTrimmed(v10, 10, 2));
