import { LOCALE } from './index.js';

const money = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'BRL' });
const dateTime = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Sao_Paulo' });
const date = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'short', timeZone: 'America/Sao_Paulo' });
const integer = new Intl.NumberFormat(LOCALE);

/** R$ from a number of reais (the API's money fields are decimal numbers, e.g. 12.5). */
export const formatMoney = (value: number | string | null | undefined): string => (value === null || value === undefined ? '—' : money.format(Number(value)));
export const formatDateTime = (iso: string | null | undefined): string => (iso ? dateTime.format(new Date(iso)) : '—');
export const formatDate = (iso: string | null | undefined): string => (iso ? date.format(new Date(iso)) : '—');
export const formatInt = (value: number): string => integer.format(value);

/** 12.345.678/0001-90 or 123.456.789-01 from digits; anything else unchanged. */
export function formatTaxId(id: string | null | undefined): string {
  if (!id) return '—';
  if (/^\d{14}$/.test(id)) return id.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
  if (/^\d{11}$/.test(id)) return id.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
  return id;
}
