import { describe, expect, it } from 'vitest';
import { NUMERIC_ISSUER, simpleSale, testContext } from '../../../../test/support/nfce-fixtures.js';
import { buildNfce } from './build-nfce.js';
import { accessKeyProblem, offlineDeadline, offlineNfceProblems, readOfflineNfce, type OfflineNfceFacts } from './offline-nfce.js';

const emittedAt = new Date('2026-07-15T15:04:05Z');
const offline = buildNfce(simpleSale(), testContext(NUMERIC_ISSUER, {
  serie: 600, nNF: 77, cNF: '48213907', emittedAt, tpEmis: 9, contingency: { at: new Date('2026-07-15T15:00:00Z'), reason: 'Sem internet no caixa 3 desde as 11h' },
}));
const facts = readOfflineNfce(offline.xml)!;
const ctx = { now: new Date('2026-07-15T16:00:00Z'), issuerCnpj: NUMERIC_ISSUER.cnpj, tpAmb: 2 as 1 | 2, gatewaySerie: 1, field: (f: string) => f };
const fields = (f: OfflineNfceFacts, c = ctx) => offlineNfceProblems(f, c).map((p) => p.field);

describe('an NFC-e a point of sale issued offline (docs/fiscal/offline-contingency.md)', () => {
  it('reads what it printed: key, series, number, cNF, dhEmi, dhCont, xJust, the QR code, the signature', () => {
    expect(facts).toMatchObject({
      accessKey: offline.accessKey, serie: '600', nNF: '77', cNF: '48213907', tpEmis: '9', mod: '65', emitCnpj: NUMERIC_ISSUER.cnpj,
      dhEmi: '2026-07-15T12:04:05-03:00', dhCont: '2026-07-15T12:00:00-03:00', xJust: 'Sem internet no caixa 3 desde as 11h',
      qrCode: offline.qrCodeUrl, signed: true,
    });
    expect(readOfflineNfce(offline.xml.replace(/<Signature[\s\S]*<\/Signature>/, ''))!.signed).toBe(false);
    expect(readOfflineNfce('<nota/>')).toBeNull();
  });

  it('meets every rule as built, and each broken rule names its field', () => {
    expect(offlineNfceProblems(facts, ctx)).toEqual([]);
    expect(fields({ ...facts, tpEmis: '1' })).toEqual(['tpEmis', 'Id']);
    expect(fields({ ...facts, dhCont: '2026-07-15T12:05:00-03:00' })).toEqual(['dhCont']);
    expect(fields({ ...facts, dhCont: null, xJust: 'curta' })).toEqual(['dhCont', 'xJust']);
    expect(fields(facts, { ...ctx, gatewaySerie: 600 })).toEqual(['serie']);
    expect(fields({ ...facts, serie: '900' })).toEqual(['serie', 'Id']);
    expect(fields(facts, { ...ctx, issuerCnpj: '06157250000116' })).toEqual(['CNPJ']);
    expect(fields(facts, { ...ctx, tpAmb: 1 })).toEqual(['tpAmb']);
    expect(fields({ ...facts, cNF: '00000077' })).toEqual(['cNF', 'Id']);
    // A POS clock a few minutes ahead is tolerated; an hour ahead is not.
    expect(fields(facts, { ...ctx, now: new Date(emittedAt.getTime() - 60_000) })).toEqual([]);
    expect(fields(facts, { ...ctx, now: new Date(emittedAt.getTime() - 3600_000) })).toEqual(['dhEmi']);
  });

  it('refuses the ide values the authority refuses in an NFC-e (MOC group B), naming the leaf and the rule', () => {
    const rules = (ide: Partial<OfflineNfceFacts['ide']>) => offlineNfceProblems({ ...facts, ide: { ...facts.ide, ...ide } }, ctx).map((p) => `${p.field}:${p.rule}`);
    expect(facts.ide).toMatchObject({ tpNF: '1', idDest: '1', tpImp: '4', finNFe: '1', indFinal: '1', indPres: '1', indIntermed: null, procEmi: '0', dhSaiEnt: null });
    expect(rules({ dhSaiEnt: facts.dhEmi })).toEqual(['dhSaiEnt:B10-10']);
    expect(rules({ tpNF: '0', idDest: '2' })).toEqual(['tpNF:B11-10', 'idDest:B11a-10']);
    expect(rules({ cMunFG: '3500000' })).toEqual(['cMunFG:B12-10']);
    expect(rules({ cMunFG: facts.ide.cUF === '33' ? '3550308' : '3304557' })).toEqual(['cMunFG:B12-20']);
    expect(rules({ tpImp: '1', finNFe: '4', indFinal: '0' })).toEqual(['tpImp:B21-10', 'finNFe:B25-20', 'indFinal:B25a-10']);
    expect(rules({ indPres: '2' })).toEqual(['indPres:B25b-20']);
    expect(rules({ indPres: '4' })).toEqual(['indIntermed:B25c-10']);
    expect(rules({ indIntermed: '0' })).toEqual(['indIntermed:B25c-20']);
    expect(rules({ procEmi: '1' })).toEqual(['procEmi:B26-20']);
    expect(rules({ indPres: '4', indIntermed: '0', procEmi: '3' })).toEqual([]);
  });

  it('tells which key fields disagree with the document', () => {
    expect(accessKeyProblem(facts)).toBeNull();
    expect(accessKeyProblem({ ...facts, nNF: '78', dhEmi: '2026-08-01T10:00:00-03:00' })).toMatch(/AAMM, nNF$/);
    expect(accessKeyProblem({ ...facts, accessKey: facts.accessKey.slice(0, 43) + ((Number(facts.accessKey[43]) + 1) % 10) })).toMatch(/check digit/);
  });

  it('holds a 24-hour deadline from dhEmi; past it the note is late, not refused', () => {
    expect(offlineDeadline(facts.dhEmi, ctx.now)).toEqual({ deadline: new Date('2026-07-16T15:04:05Z'), late: false });
    expect(offlineDeadline(facts.dhEmi, new Date('2026-07-16T15:04:06Z')).late).toBe(true);
  });
});
