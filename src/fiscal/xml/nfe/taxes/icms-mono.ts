import { leaf } from '../../xml-text.js';
import { money, quantity, rate } from '../format.js';
import type { IcmsModel } from '../model.js';

// The monophase ICMS groups on fuels (NT 2023.001; LC 192/2022, Convênio ICMS 199/2022), fields in the order of
// leiauteNFe_v4.00.xsd (the same in PL_009_V4, PL_010_V1.30 and PL_010_V1.40; docs/fiscal/icms-monophase.md).
// qBCMono/qBCMonoReten/qBCMonoRet are optional in the XSD; the gateway always writes them.

type Part = { q: bigint; adRem: number; value: number };

function need<T>(value: T | undefined, what: string, cst: string): T {
  if (value === undefined) throw new Error(`ICMS CST ${cst} needs ${what} (the item validation should have caught this)`);
  return value;
}

const head = (m: IcmsModel): string => leaf('orig', m.orig) + leaf('CST', m.code);
const part = (p: Part, q: string, adRem: string, v: string): string => quantity(q, p.q) + rate(adRem, p.adRem) + money(v, p.value);

/** ICMS02 (N02a): orig, CST, [qBCMono], adRemICMS, vICMSMono. */
export function icms02(m: IcmsModel): string {
  return head(m) + part(need(m.mono?.own, 'the own monophase ICMS', '02'), 'qBCMono', 'adRemICMS', 'vICMSMono');
}

/** ICMS15 (N03a): the own part, the retention part, then the optional pair pRedAdRem + motRedAdRem. */
export function icms15(m: IcmsModel): string {
  const r = m.mono?.reduction;
  return (
    head(m) +
    part(need(m.mono?.own, 'the own monophase ICMS', '15'), 'qBCMono', 'adRemICMS', 'vICMSMono') +
    part(need(m.mono?.reten, 'the retention', '15'), 'qBCMonoReten', 'adRemICMSReten', 'vICMSMonoReten') +
    (r ? rate('pRedAdRem', r.pRedAdRem) + leaf('motRedAdRem', r.motRedAdRem) : '')
  );
}

/**
 * ICMS53 (N07a): qBCMono, adRemICMS, vICMSMonoOp, pDif, vICMSMonoDif, vICMSMono (all optional in the XSD).
 * qBCMonoDif and adRemICMSDif, still in the XSD, were revoked by NT 2023.001 v1.20 and are never written.
 */
export function icms53(m: IcmsModel): string {
  const own = need(m.mono?.own, 'the own monophase ICMS', '53');
  const dif = need(m.mono?.dif, 'the deferral', '53');
  return (
    head(m) +
    quantity('qBCMono', own.q) +
    rate('adRemICMS', own.adRem) +
    money('vICMSMonoOp', dif.vICMSMonoOp) +
    rate('pDif', dif.pDif) +
    money('vICMSMonoDif', dif.vICMSMonoDif) +
    money('vICMSMono', own.value)
  );
}

/** ICMS61 (N08a): orig, CST, [qBCMonoRet], adRemICMSRet, vICMSMonoRet. */
export function icms61(m: IcmsModel): string {
  return head(m) + part(need(m.mono?.ret, 'the ICMS charged earlier', '61'), 'qBCMonoRet', 'adRemICMSRet', 'vICMSMonoRet');
}
