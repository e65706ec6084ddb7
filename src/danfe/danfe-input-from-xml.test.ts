import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { danfeInputFromXml } from './danfe-input-from-xml.js';
import { DanfeInputError } from './danfe-input.js';

const samples = resolve(import.meta.dirname, '../../test/fixtures/samples');
const read = (p: string) => readFileSync(resolve(samples, p), 'utf8');
const PR_HOM = read('nfce/nfce_v3.10_PR_homologacao_autorizada_NFCeHom2.xml');
const BA = read('nfce/nfce_v4.00_BA_homologacao_offline_tpEmis9_qrv2_assinada_sem_protocolo.xml');

describe('danfeInputFromXml', () => {
  it('reads an authorized 3.10 nfeProc: CDATA QR text, repeated pag, protocol, state urlChave', () => {
    const input = danfeInputFromXml(PR_HOM);
    expect(input.accessKey).toBe('41170410422724000187650010000005101000010235');
    expect(input.qrCode).toMatch(/^http:\/\/www\.dfeportal\.fazenda\.pr\.gov\.br\/.*cHashQRCode=7BD57045E529D6F14D97F1BAE333D35B27921441$/);
    expect(input.qrCode).toContain('&nVersao=100&');
    expect(input.payments).toEqual([{ method: '01', amount: '1500.00' }]);
    expect(input.authorization).toEqual({ protocol: '141170000192238', receivedAt: '2017-04-12T17:14:28-03:00' });
    // 3.10 had no infNFeSupl/urlChave: the published PR address is printed.
    expect(input.urlChave).toBe('http://www.fazenda.pr.gov.br/nfce/consulta');
    expect(input.issuer).toMatchObject({ cnpj: '10422724000187', name: 'Lumer Informática LTDA', tradeName: 'Compusoft', ie: '9045932653' });
    expect(input.consumer).toBeUndefined();
  });

  it('reads a bare offline NFe: contingency data, no authorization, urlChave of the XML', () => {
    const input = danfeInputFromXml(BA);
    expect(input.tpEmis).toBe(9);
    expect(input.contingency).toEqual({ since: '2018-10-01T14:54:34-04:00', reason: 'PROBLEMAS TECNICOS' });
    expect(input.authorization).toBeUndefined();
    expect(input.urlChave).toBe('http://hinternet.sefaz.ba.gov.br/nfce/consulta');
    expect(input.totals).toEqual({ products: '150.00', discount: '0.00', additions: '0.00', total: '150.00', approximateTaxes: '35.75' });
    expect(input.items.map((i) => [i.code, i.quantity, i.unitPrice])).toEqual([['10015300336', '1.0000', '96.2200'], ['10029200332', '1.0000', '53.7800']]);
  });

  it('refuses what has no DANFE NFC-e: model 55, a denied note, a foreign protocol', () => {
    expect(() => danfeInputFromXml(read('nfe/nfe_v4.00_RS_homologacao_autorizada.xml'))).toThrow(/mod/);
    const denied = PR_HOM.replace('<cStat>100</cStat>', '<cStat>302</cStat>');
    expect(() => danfeInputFromXml(denied)).toThrow(DanfeInputError);
    const foreign = PR_HOM.replace('<chNFe>41170410422724000187650010000005101000010235</chNFe>', '<chNFe>41170410422724000187650010000005101000010243</chNFe>');
    expect(() => danfeInputFromXml(foreign)).toThrow(/protNFe is for key/);
    expect(() => danfeInputFromXml('<nada/>')).toThrow(DanfeInputError);
  });

  it('reads consumer, change and cancellation when present', () => {
    const withDest = BA.replace('</emit>', '</emit><dest><CNPJ>10422724000187</CNPJ><xNome>Cliente</xNome></dest>')
      .replace('</detPag>', '</detPag><vTroco>2.50</vTroco>');
    const input = danfeInputFromXml(withDest, { cancellation: { protocol: '1234' } });
    expect(input.consumer).toEqual({ document: { kind: 'cnpj', id: '10422724000187' }, name: 'Cliente' });
    expect(input.change).toBe('2.50');
    expect(input.cancellation).toEqual({ protocol: '1234' });
  });
});
