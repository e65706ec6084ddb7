// CPF and CNPJ check digits. CNPJ accepts the 2026 alphanumeric form (RFB IN 2229/2024, NT Conjunta
// 2025.001): positions 1-12 in [0-9A-Z], check digits numeric, each character valued ASCII - 48.

const CNPJ_SHAPE = /^[0-9A-Z]{12}[0-9]{2}$/;
const CPF_SHAPE = /^[0-9]{11}$/;

function mod11Digit(values: number[], weights: number[]): number {
  const sum = values.reduce((acc, v, i) => acc + v * weights[i]!, 0);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** The two check digits of a 12-character CNPJ base (numeric or alphanumeric). */
export function cnpjCheckDigits(base12: string): string {
  const values = [...base12].map((c) => c.charCodeAt(0) - 48);
  const d1 = mod11Digit(values, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11Digit([...values, d1], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${d1}${d2}`;
}

export function isValidCnpj(cnpj: string): boolean {
  if (!CNPJ_SHAPE.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return false;
  return cnpjCheckDigits(cnpj.slice(0, 12)) === cnpj.slice(12);
}

/** True when the CNPJ has letters (the layout PL_009 cannot carry it; PL_010 can). */
export function isAlphanumericCnpj(cnpj: string): boolean {
  return /[A-Z]/.test(cnpj);
}

export function isValidCpf(cpf: string): boolean {
  if (!CPF_SHAPE.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  const digits = [...cpf].map(Number);
  const d1 = mod11Digit(digits.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11Digit(digits.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d1 === digits[9] && d2 === digits[10];
}

/** Strips the usual punctuation ("12.345.678/0001-95", "123.456.789-09") and upper-cases. */
export function cleanTaxId(value: string): string {
  return value.replace(/[.\-/\s]/g, '').toUpperCase();
}
