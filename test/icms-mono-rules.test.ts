import { describe, expect, it } from 'vitest';
import { monoRejection } from '../src/authority-sim/icms-mono-rules.js';
import { nfeFacts } from '../src/authority-sim/nfe-facts.js';
import { computeNfe } from '../src/documents/nfe/domain/compute-nfe.js';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { NfeItem, NfeRequest } from '../src/documents/nfe/domain/nfe-request.js';
import { NFE_CONTEXT, interstateRequest, nfeDocumentContext } from './support/nfe-fixtures.js';

// The simulator's NT 2023.001 item rules (docs/fiscal/icms-monophase.md, "Rules"), each broken in a document the
// gateway wrote: the gateway always writes the quantities and computes the values, so no request breaks them.
// Hand figures: gasoline C 40 L at R$ 1.57: 40 x 1.57 = R$ 62.80; retention 10 L: R$ 15.70. Diesel B S10 (820101034,
// a code of N41-20), the NT's own example (section 7): retention 140 L x R$ 1.12 x 0.3333 = 52.2614 -> R$ 52.26.

const fuelItem = (cst: string, icms_mono: object, anp = '320102001'): NfeItem => ({
  description: anp === '320102001' ? 'Gasolina C comum' : 'Oleo diesel B S10', quantity: anp === '320102001' ? 40 : 1000, unit_price: 6.29,
  ncm: anp === '320102001' ? '27101259' : '27101921', cfop: '5656', unit: 'L', cst_icms: cst,
  fuel: { anp_code: anp, uf_cons: 'SP', ...(anp === '320102001' ? {} : { biodiesel_percent: 14 }) }, icms_mono: icms_mono as NfeItem['icms_mono'], pis: { cst: '04' }, cofins: { cst: '04' },
});

function document(): string {
  const req: NfeRequest = interstateRequest();
  req.presenca = 'nao_se_aplica';
  req.destinatario = {
    cnpj: '11222333000181', name: 'Posto Boa Viagem Ltda', indicador_ie: 'contribuinte', ie: '112006603110',
    address: { street: 'Rua A', number: '1', district: 'Centro', city_code: '3509502', city: 'Campinas', uf: 'SP', cep: '13010000' },
  };
  req.items = [
    fuelItem('61', { ad_rem_rate: 1.57 }),
    fuelItem('02', { ad_rem_rate: 1.57 }),
    fuelItem('15', { ad_rem_rate: 1.57, retention: { quantity: 10, ad_rem_rate: 1.57 } }),
    fuelItem('15', { quantity: 860, ad_rem_rate: 1.12, retention: { quantity: 140, ad_rem_rate: 1.12 } }, '820101034'),
  ];
  delete req.freight;
  delete req.transporte;
  req.payment = { method: 'boleto', amount: computeNfe(req, { crt: 3, issuerUf: 'SP', destUf: 'SP', finalConsumer: false }).total.vNF / 100 };
  const prepared = prepareNfe(req, NFE_CONTEXT);
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.errors));
  return buildPreparedNfe(prepared.nfe, nfeDocumentContext()).xml;
}

/** The `n`-th (0-based) ICMS group `group` of the document, changed by `edit`. */
function inGroup(xml: string, group: string, n: number, edit: (g: string) => string): string {
  let seen = -1;
  return xml.replace(new RegExp(`<${group}>[\\s\\S]*?</${group}>`, 'g'), (g) => (++seen === n ? edit(g) : g));
}
const drop = (tag: string) => (g: string) => g.replace(new RegExp(`<${tag}>[^<]*</${tag}>`), '');
const set = (tag: string, value: string) => (g: string) => g.replace(new RegExp(`<${tag}>[^<]*</${tag}>`), `<${tag}>${value}</${tag}>`);
const cStatOf = (xml: string) => monoRejection(nfeFacts(xml));

describe('the NT 2023.001 monophase item rules of the simulator', () => {
  const xml = document();

  it('accept what the gateway writes, the diesel B retention at a third (N41-20)', () => {
    expect(xml).toContain('<qBCMonoReten>140.0000</qBCMonoReten><adRemICMSReten>1.12</adRemICMSReten><vICMSMonoReten>52.26</vICMSMonoReten>');
    expect(xml).toContain('<qBCMonoReten>10.0000</qBCMonoReten><adRemICMSReten>1.57</adRemICMSReten><vICMSMonoReten>15.70</vICMSMonoReten>');
    expect(cStatOf(xml)).toBeNull();
  });

  it('answer each rule with its code and the NT message', () => {
    const cases: Array<[string, string, number, string]> = [
      [inGroup(xml, 'ICMS61', 0, drop('qBCMonoRet')), 'N43a-10', 769, 'Rejeição: Obrigatório o preenchimento da Quantidade tributada retida anteriormente [nItem:1]'],
      [inGroup(xml, 'ICMS02', 0, drop('qBCMono')), 'N37a-10', 767, 'Rejeição: Obrigatório o preenchimento da Quantidade tributada [nItem:2]'],
      [inGroup(xml, 'ICMS15', 0, drop('qBCMonoReten')), 'N39a-10', 768, 'Rejeição: Obrigatório o preenchimento da Quantidade tributada sujeita a retenção [nItem:3]'],
      // 62.80 + 0.02: outside the tolerance of R$ 0.01; 62.81 is inside it.
      [inGroup(xml, 'ICMS02', 0, set('vICMSMono', '62.82')), 'N39-10', 962, 'Rejeição: Valor do ICMS próprio difere do calculado. [nItem:2]'],
      [inGroup(xml, 'ICMS15', 0, set('vICMSMonoReten', '15.72')), 'N41-10', 964, 'Rejeição: Valor do ICMS com retenção difere do calculado. [nItem:3]'],
      // The diesel B retention at the whole product, 140 x 1.12 = 156.80, instead of a third.
      [inGroup(xml, 'ICMS15', 1, set('vICMSMonoReten', '156.80')), 'N41-20', 964, 'Rejeição: Valor do ICMS com retenção difere do calculado. [nItem:4]'],
    ];
    for (const [broken, rule, cStat, xMotivo] of cases) {
      const r = cStatOf(broken);
      expect(r, rule).toMatchObject({ cStat, xMotivo });
      expect(r!.detail).toContain(rule);
    }
    expect(cStatOf(inGroup(xml, 'ICMS02', 0, set('vICMSMono', '62.81')))).toBeNull();
  });

  it('in an NFC-e only N43a-10 applies (N39-10 and N41-10 left model 65 in v1.30; N37a-10, N39a-10 are model 55)', () => {
    const nfce = xml.replace('<mod>55</mod>', '<mod>65</mod>');
    expect(cStatOf(inGroup(nfce, 'ICMS02', 0, set('vICMSMono', '70.00')))).toBeNull();
    expect(cStatOf(inGroup(nfce, 'ICMS61', 0, drop('qBCMonoRet')))).toMatchObject({ cStat: 769 });
  });
});
