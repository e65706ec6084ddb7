import { checkNumber, fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import type { DpsTotTrib } from '../../../fiscal/xml/nfse/model.js';
import { toCents, toScaled } from '../../../kernel/decimal.js';
import type { NfseIssuer } from './nfse-context.js';
import type { NfseRequest } from './nfse-request.js';

// totTrib (TCTribTotal, the approximate taxes of Lei 12.741/2012): which choice a provider may write.
// Anexo I E0712: an ME/EPP never writes indTotTrib; E0713: a provider outside the Simples Nacional writes
// neither indTotTrib nor pTotTribSN; E0710: a MEI never writes pTotTribSN. So only a MEI may leave the
// estimate out (indTotTrib 0); the others give amounts or rates (an ME/EPP may give its Simples rate).

const AMOUNTS = [['federal', 'E0702'], ['state', 'E0703'], ['municipal', 'E0704']] as const;
const RATES = [['federal_rate', 'E0706'], ['state_rate', 'E0707'], ['municipal_rate', 'E0708']] as const;
const at = 'values.approximate_taxes';
const snAt = 'values.simples_nacional_rate';

export function checkTotTrib(errors: Errors, req: NfseRequest, issuer: NfseIssuer, vServ: number | undefined): void {
  const t = req.values.approximate_taxes;
  const sn = req.values.simples_nacional_rate;
  const op = issuer.simplesNacional;
  if (t) {
    const amounts = AMOUNTS.filter(([k]) => t[k] !== undefined).length;
    const rates = RATES.filter(([k]) => t[k] !== undefined).length;
    if (!((amounts === 3 && rates === 0) || (amounts === 0 && rates === 3))) {
      fail(errors, at, 'give either the three amounts (federal, state, municipal) or the three rates (federal_rate, state_rate, municipal_rate)');
    }
    for (const [k, rule] of AMOUNTS) {
      // E0702-E0704: 0 <= amount <= vServ.
      if (checkNumber(errors, `${at}.${k}`, t[k], { places: 2, sign: 'non-negative', required: false }) && t[k] !== undefined && vServ !== undefined && toCents(t[k]) > vServ) {
        fail(errors, `${at}.${k}`, `must not exceed service_amount (Anexo I ${rule})`, rule);
      }
    }
    for (const [k, rule] of RATES) {
      // E0706-E0708: 0 <= rate <= 100.
      if (checkNumber(errors, `${at}.${k}`, t[k], { places: 2, sign: 'non-negative', required: false }) && t[k] !== undefined && t[k] > 100) {
        fail(errors, `${at}.${k}`, `must be at most 100 (Anexo I ${rule})`, rule);
      }
    }
    if (sn !== undefined) fail(errors, snAt, 'give either approximate_taxes or simples_nacional_rate, not both');
  }
  if (sn !== undefined) {
    if (op === 2) return fail(errors, snAt, 'must be absent for a MEI provider (Anexo I E0710)', 'E0710');
    if (op === 1) return fail(errors, snAt, 'must be absent for a provider outside the Simples Nacional: give approximate_taxes (Anexo I E0713)', 'E0713');
    checkNumber(errors, snAt, sn, { places: 2, sign: 'non-negative', max: 99.99 }); // TSDec2V2
  } else if (!t) {
    // Without an estimate the DPS would carry indTotTrib 0, which Sefin takes only from a MEI.
    if (op === 3) fail(errors, snAt, 'is required for an ME/EPP provider, or give approximate_taxes: Sefin refuses a DPS without the approximate taxes (indTotTrib) from an ME/EPP (Anexo I E0712)', 'E0712');
    if (op === 1) fail(errors, at, 'is required for a provider outside the Simples Nacional: Sefin refuses a DPS without the approximate taxes (indTotTrib) from it (Anexo I E0713)', 'E0713');
  }
}

/** The totTrib choice of a valid request: amounts, rates, the Simples rate, or (a MEI giving none) indTotTrib 0. */
export function totTribOf(v: NfseRequest['values']): DpsTotTrib {
  const t = v.approximate_taxes;
  const h = (p: number) => Number(toScaled(p, 2));
  if (t?.federal !== undefined) return { vTotTrib: { vTotTribFed: toCents(t.federal), vTotTribEst: toCents(t.state!), vTotTribMun: toCents(t.municipal!) } };
  if (t?.federal_rate !== undefined) return { pTotTrib: { pTotTribFed: h(t.federal_rate), pTotTribEst: h(t.state_rate!), pTotTribMun: h(t.municipal_rate!) } };
  if (v.simples_nacional_rate !== undefined) return { pTotTribSN: h(v.simples_nacional_rate) };
  return { indTotTrib: 0 };
}
