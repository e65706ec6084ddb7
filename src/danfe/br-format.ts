// Brazilian presentation of the XML's values: 1.234,56 money, dd/mm/yyyy dates, masked documents.
// Works on the decimal strings themselves so no binary float ever rounds an amount.

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

function splitDecimal(value: string): { sign: string; int: string; frac: string } {
  const m = DECIMAL.exec(value.trim());
  if (!m) throw new Error(`not a decimal number: ${JSON.stringify(value)}`);
  return { sign: m[1] ?? '', int: (m[2] ?? '0').replace(/^0+(?=\d)/, ''), frac: m[3] ?? '' };
}

function groupThousands(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/** Integer cents of a decimal string, half-up (amounts in the XML have at most 2 decimals). */
export function toCents(value: string): number {
  const { sign, int, frac } = splitDecimal(value);
  let cents = Number(int) * 100 + Number((frac + '00').slice(0, 2));
  if (Number(frac.charAt(2) || '0') >= 5) cents += 1;
  return sign ? -cents : cents;
}

/** "1234.5" -> "1.234,50". */
export function formatMoney(value: string): string {
  return formatCents(toCents(value));
}

export function formatCents(cents: number): string {
  const abs = Math.abs(cents);
  const int = groupThousands(String(Math.floor(abs / 100)));
  const frac = String(abs % 100).padStart(2, '0');
  return `${cents < 0 ? '-' : ''}${int},${frac}`;
}

/** Sum of decimal strings, as a decimal string with 2 places. */
export function sumMoney(values: ReadonlyArray<string | undefined>): string {
  const cents = values.reduce((acc, v) => acc + (v ? toCents(v) : 0), 0);
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Keeps every significant decimal the XML carries, at least `minDecimals`:
 * unit prices "96.2200" -> "96,22" but "0.1234" -> "0,1234"; quantities "1.0000" -> "1".
 */
export function formatDecimal(value: string, minDecimals: number): string {
  const { sign, int, frac } = splitDecimal(value);
  let kept = frac.replace(/0+$/, '');
  if (kept.length < minDecimals) kept = kept.padEnd(minDecimals, '0');
  const body = groupThousands(int) + (kept ? `,${kept}` : '');
  return sign && /[1-9]/.test(int + frac) ? `-${body}` : body;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/;

/**
 * "2017-04-12T17:14:07-03:00" -> "12/04/2017 17:14:07". The wall-clock time of the XML is kept as
 * written: dhEmi carries the issuer's offset and the receipt shows the issuer's local time.
 */
export function formatDateTime(value: string): string {
  const m = DATE_TIME.exec(value.trim());
  if (!m) return value;
  return `${m[3]}/${m[2]}/${m[1]} ${m[4]}:${m[5]}:${m[6]}`;
}

/** Manual DANFE NFC-e division V: the key in 11 groups of 4 digits. */
export function formatAccessKey(key: string): string {
  return (key.match(/.{1,4}/g) ?? []).join(' ');
}

/** "510" -> "000.000.510" (nNF has 9 positions). */
export function formatNoteNumber(nNF: string): string {
  return nNF.padStart(9, '0').replace(/^(\d{3})(\d{3})(\d{3})$/, '$1.$2.$3');
}

export function formatSeries(serie: string): string {
  return serie.padStart(3, '0');
}

/** CNPJ mask; works for the alphanumeric CNPJ too (docs/fiscal/access-key.md#alphanumeric-cnpj: same 14 positions). */
export function formatCnpj(cnpj: string): string {
  const m = /^([0-9A-Z]{2})([0-9A-Z]{3})([0-9A-Z]{3})([0-9A-Z]{4})(\d{2})$/.exec(cnpj);
  return m ? `${m[1]}.${m[2]}.${m[3]}/${m[4]}-${m[5]}` : cnpj;
}

export function formatCpf(cpf: string): string {
  const m = /^(\d{3})(\d{3})(\d{3})(\d{2})$/.exec(cpf);
  return m ? `${m[1]}.${m[2]}.${m[3]}-${m[4]}` : cpf;
}

export function formatCep(cep: string): string {
  const m = /^(\d{5})(\d{3})$/.exec(cep);
  return m ? `${m[1]}-${m[2]}` : cep;
}

/** "4332624001" -> "(43) 3262-4001"; leaves odd lengths alone. */
export function formatPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '').replace(/^0(?=\d{10,11}$)/, '');
  const m = /^(\d{2})(\d{4,5})(\d{4})$/.exec(digits);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : phone;
}
