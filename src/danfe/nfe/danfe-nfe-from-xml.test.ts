import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nfeProcSample } from '../../../test/support/nfe-proc-sample.js';
import { DanfeInputError } from '../danfe-input.js';
import { danfeNfeInputFromXml } from './danfe-nfe-from-xml.js';

const samples = resolve(import.meta.dirname, '../../../test/fixtures/samples/nfe');
const read = (p: string) => readFileSync(resolve(samples, p), 'utf8');
const RS = read('nfe_v4.00_RS_homologacao_autorizada.xml');
const SP = read('nfe_v4.00_SP_producao_autorizada_com_retEvento_cancelamento.xml');
const RTC = read('nfe_v4.00_RTC_IBSCBS_sintetica_assinatura_invalida.xml');

describe('danfeNfeInputFromXml', () => {
  it('reads the RS nfeProc: ide, parties, the CSOSN item, invoice and duplicate, protocol', () => {
    const input = danfeNfeInputFromXml(RS);
    expect(input).toMatchObject({
      accessKey: '43180906929383000163550010000000261000010301',
      tpAmb: 2,
      tpEmis: 1,
      tpNF: '1',
      number: '26',
      series: '1',
      natOp: 'Venda de producao do estabelecimento',
      leftAt: '2018-09-25T15:14:00-03:00',
      issuer: { cnpj: '06929383000163', ie: '0018000762', name: 'UMA RAZAO SOCIAL DE TESTE QUALQUER' },
      recipient: { document: { kind: 'cnpj', id: '58716523000119' }, ie: '112006603110', address: { city: 'SAO PAULO', uf: 'SP', cep: '04207040' } },
      invoice: { number: '173', original: '1.00', discount: '0.00', net: '1.00' },
      duplicates: [{ number: '001', dueDate: '2018-12-31', amount: '1.00' }],
      transport: { mode: '9' },
      authorization: { protocol: '143180006932433', receivedAt: '2018-09-25T16:21:05-03:00' },
    });
    expect(input.items).toEqual([
      { number: 1, code: '11007', description: 'UM PRODUTO TESTE QUALQUER', ncm: '64011000', cst: '0202', cfop: '6101', unit: 'UN', quantity: '10.0000', unitPrice: '50', total: '500.00' },
    ]);
    expect(input.totals).toMatchObject({ vBC: '0.00', vProd: '500.00', vNF: '500.00', vTotTrib: '0.00' });
    expect(input.cancellation).toBeUndefined();
    expect(input.ibsCbs).toBeUndefined();
  });

  it('reads the SP note: CST item with ICMS base/value/rate, carrier and volumes, cancellation, fisco text', () => {
    const input = danfeNfeInputFromXml(SP);
    expect(input.items[0]).toMatchObject({ cst: '000', icmsBase: '414.90', icmsValue: '74.68', icmsRate: '18.00' });
    expect(input.transport).toEqual({ mode: '1', carrier: { name: 'RETIRA', address: { street: '', number: '', city: '', uf: 'SP' } }, volumes: { quantity: '7', species: 'VOLUMES', grossKg: '109.650', netKg: '106.850' } });
    expect(input.cancellation).toEqual({ protocol: '135210128997350', at: '2021-02-04T15:15:09-03:00' });
    expect(input.fiscoMessage).toMatch(/^SAIDA COM SUSPENSAO DO IPI/);
  });

  it('reads IBSCBSTot of a Reforma Tributária note', () => {
    expect(danfeNfeInputFromXml(RTC).ibsCbs).toEqual({ base: '2000.50', ibsUf: '30', ibsMun: '40', ibs: '50', cbs: '87.29', totalWithIbsCbs: '5000' });
  });

  it('sums several volumes and keeps only what they share; reads IPITrib', () => {
    const input = danfeNfeInputFromXml(nfeProcSample({ items: 2 }).xml);
    expect(input.transport.volumes).toEqual({ quantity: '5', species: 'CAIXA', brand: 'FERRAGENS', grossKg: '41.750', netKg: '40.500' });
    expect(input.transport.carrier).toMatchObject({ name: 'TRANSPORTES RAPIDOS LTDA', document: { kind: 'cnpj', id: '99888777000166' }, address: { city: 'JUNDIAI', uf: 'SP' } });
    expect(input.items[1]).toMatchObject({ ipiValue: '1.23', ipiRate: '5.0000', icmsRate: '18.0000' });
  });

  it('cuts text the XSD would not allow (a received note may not be schema-valid)', () => {
    const long = 'A'.repeat(300);
    const input = danfeNfeInputFromXml(RS.replace('UM PRODUTO TESTE QUALQUER', long));
    expect(input.items[0]!.description).toHaveLength(120);
    expect(input.items[0]!.description.endsWith('…')).toBe(true);
  });

  it('refuses an NFC-e, a bare NFe, a note not authorised, a protocol of another key, 121 duplicates', () => {
    const nfce = RS.replace('<mod>55</mod>', '<mod>65</mod>');
    expect(() => danfeNfeInputFromXml(nfce)).toThrow(/model 55/);
    const bare = RS.replace(/^[\s\S]*?(<NFe>[\s\S]*<\/NFe>)[\s\S]*$/, '$1');
    expect(() => danfeNfeInputFromXml(bare)).toThrow(DanfeInputError);
    expect(() => danfeNfeInputFromXml(RS.replace('<cStat>100</cStat>', '<cStat>110</cStat>'))).toThrow(/cStat 110/);
    expect(() => danfeNfeInputFromXml(RS.replace('<chNFe>43180906929383000163550010000000261000010301</chNFe>', '<chNFe>43180906929383000163550010000000271000010308</chNFe>'))).toThrow(/for key/);
    expect(() => danfeNfeInputFromXml(nfeProcSample({ items: 1, duplicates: 121 }).xml)).toThrow(/121 dup/);
  });
});
