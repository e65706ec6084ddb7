// The official schema package is chosen by the document's date (dhEmi) and environment;
// a group that exists only in the newer package is refused by the older one and the other way round.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { offlineSchemaOf } from '../src/documents/nfce/services/offline-xml-reading.js';
import { checkNfeLotSchema, checkSchema } from '../src/authority-sim/xml-checks.js';
import { layoutInForce, messagePackageFor, NFE_LAYOUTS, NFE_MESSAGE_LAYOUTS, NFSE_LAYOUTS, schemaPackageFor } from '../src/fiscal/xml/xsd/schema-packages.js';
import { hasSchema, SCHEMA_DIRS } from '../src/fiscal/xml/xsd/schema-cache.js';
import { validateNfeOfItsDate } from '../src/fiscal/xml/xsd/validate-xml.js';
import { NUMERIC_ISSUER, simpleSale, testContext } from './support/nfce-fixtures.js';
import { xmllint } from './support/xml-tools.js';

const samples = resolve(import.meta.dirname, 'fixtures/samples');
/** The nfelib RTC sample (NF-e 55, tpAmb 1): its IS group writes pISEspec, renamed adRemIS by NT 2025.002 v1.40. */
const rtcSample = readFileSync(resolve(samples, 'nfe/nfe_v4.00_RTC_IBSCBS_sintetica_assinatura_invalida.xml'), 'utf8');
const dated = (xml: string, dhEmi: string) => xml.replace(/<dhEmi>[^<]*<\/dhEmi>/, `<dhEmi>${dhEmi}</dhEmi>`);
/** ide/cIndOp exists from NT 2025.002 v1.40 on (right before procEmi). */
const withCIndOp = (xml: string) => xml.replace('<procEmi>', '<cIndOp>123456</cIndOp><procEmi>');
const enviNFe = (nfe: string) =>
  `<enviNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><idLote>1</idLote><indSinc>1</indSinc>${nfe.replace(/^<\?xml[^>]*\?>/, '').replace(' xmlns="http://www.portalfiscal.inf.br/nfe"', '')}</enviNFe>`;

describe('schemaPackageFor: the package in force on the date', () => {
  it('NF-e and NFC-e in production: PL_009, PL_010 from 06/10/2025, the v1.40 package from 03/08/2026 (Brasília midnight)', () => {
    for (const model of [55, 65] as const) {
      expect(schemaPackageFor(model, '2025-10-05T23:59:59-03:00')).toBe('PL_009');
      expect(schemaPackageFor(model, '2025-10-06T00:00:00-03:00')).toBe('PL_010');
      expect(schemaPackageFor(model, '2026-08-02T23:59:59-03:00')).toBe('PL_010');
      expect(schemaPackageFor(model, '2026-08-03T00:00:00-03:00')).toBe('PL_010e');
      expect(schemaPackageFor(model, '2026-08-03T02:59:59Z')).toBe('PL_010');
      expect(schemaPackageFor(model, new Date('2026-08-03T03:00:00Z'))).toBe('PL_010e');
      // Manaus (-04:00) at 23:30 of 02/08 is 00:30 of 03/08 in Brasília.
      expect(schemaPackageFor(model, '2026-08-02T23:30:00-04:00')).toBe('PL_010e');
    }
  });

  it('homologation gets the v1.40 package from 01/07/2026, a month before production', () => {
    expect(schemaPackageFor(65, '2026-07-15T12:00:00-03:00', 2)).toBe('PL_010e');
    expect(schemaPackageFor(65, '2026-07-15T12:00:00-03:00', 1)).toBe('PL_010');
    expect(schemaPackageFor(55, '2026-06-30T23:59:59-03:00', 2)).toBe('PL_010');
  });

  it('v1.50 (from 03/11/2026) and v1.52 (from 16/11/2026) are in force but not bundled: the v1.40 package stands in, and the table says so', () => {
    const today = layoutInForce(55, '2026-11-28T10:00:00-03:00');
    expect(today.layout).toMatch(/v1\.52/);
    expect(today).toMatchObject({ bundled: false, pkg: 'PL_010e' });
    expect(layoutInForce(65, '2026-11-15T23:59:59-03:00')).toMatchObject({ layout: expect.stringMatching(/v1\.50/), bundled: false, pkg: 'PL_010e' });
    expect(layoutInForce(55, '2026-11-02T23:59:59-03:00')).toMatchObject({ layout: expect.stringMatching(/v1\.40/), bundled: true });
    expect(layoutInForce(55, '2026-09-15T10:00:00-03:00', 2).layout).toMatch(/v1\.50/);
    expect(layoutInForce(55, '2026-10-26T00:00:00-03:00', 2).layout).toMatch(/v1\.52/);
    expect(layoutInForce(55, '2026-10-26T00:00:00-03:00', 1).layout).toMatch(/v1\.40/);
  });

  it('docs/fiscal/schema-packages.md shows the same tables (dates and package of each layout)', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../docs/fiscal/schema-packages.md'), 'utf8');
    const rowsOf = (heading: string) => {
      const section = doc.split('\n## ').find((part) => part.startsWith(heading))!;
      return section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| layout'));
    };
    const nfse = rowsOf('NFS-e');
    expect(nfse).toHaveLength(NFSE_LAYOUTS.length);
    NFSE_LAYOUTS.forEach((l, i) => {
      const cells = nfse[i]!.split('|').map((c) => c.trim());
      expect(cells[2]).toBe(l.production ?? 'from the start');
      expect(cells[3]!.includes('stand-in')).toBe(!l.bundled);
    });
    for (const [heading, table] of [['NF-e (55)', NFE_LAYOUTS], ['Events, inutilização', NFE_MESSAGE_LAYOUTS]] as const) {
      const rows = rowsOf(heading);
      expect(rows).toHaveLength(table.length);
      table.forEach((l, i) => {
        const cells = rows[i]!.split('|').map((c) => c.trim());
        expect(cells[2]).toBe(l.homologation ?? (l.production === null ? 'from the start' : 'no date of its own found'));
        expect(cells[3]).toBe(l.production ?? 'from the start');
        expect(cells[4]!.startsWith(`\`${l.pkg}\``)).toBe(true);
        expect(cells[4]!.includes('stand-in')).toBe(!l.bundled);
      });
    }
  });

  it('the NFS-e has one package bundled, at every date: the 27/07/2026 one (alphanumeric CNPJ, production 10/08/2026) is not', () => {
    for (const date of ['2020-01-01T00:00:00-03:00', '2026-11-28T10:00:00-03:00']) expect(schemaPackageFor('nfse', date)).toBe('NFSe_v1.01');
    expect(layoutInForce('nfse', '2026-08-09T23:59:59-03:00')).toMatchObject({ bundled: true });
    expect(layoutInForce('nfse', '2026-08-10T00:00:00-03:00')).toMatchObject({ bundled: false, pkg: 'NFSe_v1.01', layout: expect.stringMatching(/27\/07\/2026/) });
    expect(layoutInForce('nfse', '2026-07-27T00:00:00-03:00', 2).bundled).toBe(false);
  });

  it('the tables run forward in time in both environments and every package they name is on disk', () => {
    for (const env of ['production', 'homologation'] as const) for (const table of [NFE_LAYOUTS, NFE_MESSAGE_LAYOUTS]) {
      const starts = table.map((l) => (env === 'homologation' ? (l.homologation ?? l.production) : l.production)).filter((d): d is string => d !== null);
      expect([...starts].sort()).toEqual(starts);
    }
    for (const l of [...NFE_LAYOUTS, ...NFSE_LAYOUTS, ...NFE_MESSAGE_LAYOUTS]) {
      expect(SCHEMA_DIRS[l.pkg]).toBeTruthy();
      expect(l.homologation === null || l.production === null || l.homologation <= l.production).toBe(true);
    }
    // A date that cannot be read gets today's layout (the document then fails its schema on dhEmi).
    expect(schemaPackageFor(65, 'not a date')).toBe('PL_010e');
  });
});

describe('documents are judged by the package of their date', () => {
  const nfce = buildNfce(simpleSale(), testContext(NUMERIC_ISSUER, { tpAmb: 1 })).xml;

  it('our NFC-e as built today validates under every package of the reform period, by date', () => {
    for (const dhEmi of ['2026-07-15T12:04:05-03:00', '2026-08-03T00:00:00-03:00', '2026-11-28T10:00:00-03:00']) {
      expect(validateNfeOfItsDate(dated(nfce, dhEmi))).toMatchObject({ valid: true, errors: [] });
    }
    expect(validateNfeOfItsDate(dated(nfce, '2026-07-15T12:04:05-03:00')).pkg).toBe('PL_010');
    expect(validateNfeOfItsDate(dated(nfce, '2026-08-03T00:00:00-03:00')).pkg).toBe('PL_010e');
  });

  it('a v1.40 group (ide/cIndOp) is refused before 03/08/2026 and accepted from then on', async () => {
    const before = validateNfeOfItsDate(withCIndOp(dated(nfce, '2026-08-02T23:59:00-03:00')));
    expect(before.pkg).toBe('PL_010');
    expect(before.valid).toBe(false);
    expect(before.errors[0]!.message).toMatch(/cIndOp/);
    expect(validateNfeOfItsDate(withCIndOp(dated(nfce, '2026-08-03T08:00:00-03:00')))).toMatchObject({ valid: true, pkg: 'PL_010e' });
    // The same with xmllint and the packages' own files.
    const doc = withCIndOp(nfce);
    expect(await xmllint(doc, 'PL_010_V1.30', 'nfe_v4.00.xsd')).toMatch(/cIndOp/);
    expect(await xmllint(doc, 'PL_010_V1.40', 'nfe_v4.00.xsd')).toBe('');
  });

  it('an IS group in the v1.30 form (pISEspec) is accepted before 03/08/2026 and refused from then on', async () => {
    expect(validateNfeOfItsDate(dated(rtcSample, '2026-07-20T10:00:00-03:00'))).toMatchObject({ valid: true, pkg: 'PL_010' });
    const after = validateNfeOfItsDate(dated(rtcSample, '2026-09-01T10:00:00-03:00'));
    expect(after.pkg).toBe('PL_010e');
    expect(after.valid).toBe(false);
    expect(after.errors[0]!.message).toMatch(/pISEspec/);
    expect(await xmllint(rtcSample, 'PL_010_V1.30', 'procNFe_v4.00.xsd')).toBe('');
    expect(await xmllint(rtcSample, 'PL_010_V1.40', 'procNFe_v4.00.xsd')).toMatch(/pISEspec/);
    // Before the reform layout, the reform groups themselves are refused (PL_009).
    expect(validateNfeOfItsDate(dated(rtcSample, '2025-07-01T10:00:01-03:00'))).toMatchObject({ valid: false, pkg: 'PL_009' });
  });

  it('the offline NFC-e intake answers the package of the document date', () => {
    expect(offlineSchemaOf(dated(nfce, '2026-08-10T10:00:00-03:00'))).toEqual({ package: 'PL_010e' });
    const refused = offlineSchemaOf(withCIndOp(dated(nfce, '2026-07-20T10:00:00-03:00')));
    expect('errors' in refused && refused.errors[0]!.message).toMatch(/cIndOp/);
  });

  it('the simulator judges each NF-e of a lot by its own dhEmi', () => {
    const early = dated(nfce, '2026-07-20T10:00:00-03:00');
    // Another key for the second NF-e of a lot (infNFe/@Id is an xs:ID: unique in the message).
    const late = dated(nfce, '2026-08-20T10:00:00-03:00').replace(/(Id="NFe[0-9A-Z]{43})(\d)"/, (_, head: string, d: string) => `${head}${(Number(d) + 1) % 10}"`);
    expect(checkNfeLotSchema(enviNFe(withCIndOp(late)))).toMatchObject({ valid: true, packages: ['PL_010e'] });
    const refused = checkNfeLotSchema(enviNFe(withCIndOp(early)));
    expect(refused).toMatchObject({ valid: false, packages: ['PL_010'] });
    expect(refused.errors[0]!.path).toMatch(/^\/enviNFe\/NFe/);
    // A lot across the change is held to both packages.
    expect(checkNfeLotSchema(enviNFe(early + late))).toMatchObject({ valid: true, packages: ['PL_010', 'PL_010e'] });
    expect(checkNfeLotSchema(enviNFe(early + withCIndOp(late))).valid).toBe(false);
  });
});

describe('events, inutilização and queries: the package the web service runs when they arrive', () => {
  const sample = (name: string, root: string) => {
    const msg = readFileSync(resolve(samples, 'events', name), 'utf8');
    return msg.slice(msg.indexOf(`<${root} `), msg.indexOf(`</${root}>`) + root.length + 3);
  };
  /** NT 2026.004: an alphanumeric CNPJ (12 letters or digits, then 2 check digits) in place of the sample's numeric one. */
  const alfa = (xml: string) => xml.replaceAll('93623057000128', '12ABC34501DE35');
  const inut = sample('nfeDadosMsg_inutNFe_testcert.xml', 'inutNFe'); // tpAmb 1
  const cancel = sample('nfeDadosMsg_envEvento_110111_cancelamento_testcert.xml', 'envEvento'); // tpAmb 2
  const at = (iso: string) => new Date(iso);

  it('PL_009 until NT 2026.004 put the alphanumeric CNPJ in production (01/07/2026; homologation 15/06/2026), PL_010 from then on', () => {
    expect(messagePackageFor(at('2026-06-30T23:59:59-03:00'), 1)).toBe('PL_009');
    expect(messagePackageFor(at('2026-07-01T00:00:00-03:00'), 1)).toBe('PL_010');
    expect(messagePackageFor(at('2026-06-14T23:59:59-03:00'), 2)).toBe('PL_009');
    expect(messagePackageFor(at('2026-06-15T00:00:00-03:00'), 2)).toBe('PL_010');
  });

  it('an inutilização with an alphanumeric CNPJ is refused the day before and accepted from 01/07/2026 (production)', () => {
    expect(inut).toContain('<tpAmb>1</tpAmb>');
    const before = checkSchema(alfa(inut), 'inutNFe_v4.00.xsd', at('2026-06-30T23:59:00-03:00'));
    expect(before.valid).toBe(false);
    expect(before.errors.map((e) => e.message).join(' ')).toMatch(/CNPJ|Id/);
    expect(checkSchema(alfa(inut), 'inutNFe_v4.00.xsd', at('2026-07-01T00:00:00-03:00'))).toMatchObject({ valid: true });
    // The numeric one passes on both sides.
    for (const d of ['2026-06-30T23:59:00-03:00', '2026-07-01T00:00:00-03:00']) expect(checkSchema(inut, 'inutNFe_v4.00.xsd', at(d)).valid).toBe(true);
  });

  it('a cancellation event with an alphanumeric CNPJ in homologation: refused before 15/06/2026, accepted from then on', () => {
    expect(cancel).toContain('<tpAmb>2</tpAmb>');
    for (const file of ['envEvento_v1.00.xsd', 'envEventoCancNFe_v1.00.xsd']) {
      expect(checkSchema(alfa(cancel), file, at('2026-06-14T23:00:00-03:00')).valid).toBe(false);
      expect(checkSchema(alfa(cancel), file, at('2026-06-15T00:00:00-03:00')).valid).toBe(true);
      expect(checkSchema(cancel, file, at('2026-06-14T23:00:00-03:00')).valid).toBe(true);
    }
  });

  it('the reform event schemas exist only in PL_010, which checks them at every date', () => {
    expect(hasSchema('PL_009', 'e112110_v1.00.xsd')).toBe(false);
    expect(hasSchema('PL_010', 'e112110_v1.00.xsd')).toBe(true);
    expect(hasSchema('PL_010', '../PL_009_V4/envEvento_v1.00.xsd')).toBe(false);
  });
});

describe('until PL_010f is bundled (known gap, docs/fiscal/schema-packages.md)', () => {
  // The nfelib RTC sample moved to the v1.40 IS group (adRemIS), its gIBSCBS replaced by a monophase group.
  const v140 = rtcSample.replaceAll('pISEspec>', 'adRemIS>');
  const withGroup = (group: string) => dated(v140.replace(/<gIBSCBS>[\s\S]*<\/gIBSCBS>/, group), '2026-11-28T10:00:00-03:00');
  const v140Mono =
    '<gIBSCBSMono><gMonoPadrao><qBCMono>100.0000</qBCMono><adRemIBS>0.10</adRemIBS><adRemCBS>0.05</adRemCBS><vIBSMono>10.00</vIBSMono><vCBSMono>5.00</vCBSMono></gMonoPadrao>' +
    '<vTotIBSMonoItem>10.00</vTotIBSMonoItem><vTotCBSMonoItem>5.00</vTotCBSMonoItem></gIBSCBSMono>';
  // NT 2025.002 v1.50 moves the IBS fields of the monophase group into gIBSMonoAdRem (names only: PL_010f is not here).
  const v150Mono =
    '<gIBSCBSMono><gIBSMonoAdRem><gMonoPadrao><qBCMono>100.0000</qBCMono><adRemIBS>0.10</adRemIBS><vIBSMono>10.00</vIBSMono></gMonoPadrao></gIBSMonoAdRem>' +
    '<vTotIBSMonoItem>10.00</vTotIBSMonoItem><vTotCBSMonoItem>5.00</vTotCBSMonoItem></gIBSCBSMono>';

  it('a document of 28/11/2026 is judged by the v1.40 package: the v1.40 monophase group passes, a v1.50-named one is refused', () => {
    expect(validateNfeOfItsDate(withGroup(v140Mono))).toMatchObject({ valid: true, pkg: 'PL_010e' });
    const v150 = validateNfeOfItsDate(withGroup(v150Mono));
    expect(v150).toMatchObject({ valid: false, pkg: 'PL_010e' });
    expect(v150.errors[0]!.message).toMatch(/gIBSMonoAdRem/);
  });
});
