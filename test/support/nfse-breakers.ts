import { gzipSync } from 'node:zlib';
import type { NfseContext } from '../../src/documents/nfse/domain/nfse-context.js';
import type { NfseRequest } from '../../src/documents/nfse/domain/nfse-request.js';
import type { SigningKey } from '../../src/fiscal/xml/signature/sign.js';
import { otherCnpjKey } from './goods-breakers.js';
import { editAt, setText, type DocumentBreaker, type Exclusion, type RequestBreaker } from './rule-breakers.js';
import { isServiceExport } from '../../src/documents/nfse/domain/validate-nfse-foreign-trade.js';

// One entry per rule of ENFORCED_NFSE_RULES (authority-sim/enforced-rules.ts): how a random valid
// NFS-e request is made to break it (see rule-breakers.ts for the three kinds).

export interface NfseCase {
  /** The request, a clone: a request breaker changes it. */
  req: NfseRequest;
  ctx: NfseContext;
}

export interface NfseDoc {
  xml: string;
  /** The same DPS built and signed with another key (the issuer's certificate replaced). */
  rebuild: (key: SigningKey) => string;
}

export interface NfseBroken {
  xml: string;
  /** The JSON body posted to Sefin, when the breaker edits the wire. */
  body?: string;
}

export type NfseBreaker = RequestBreaker<NfseCase> | DocumentBreaker<NfseCase, NfseDoc, NfseBroken> | Exclusion;

export const WIRE = 'the gateway encodes the DPS itself (gzip + base64 of UTF-8 XML) and writes it; a request cannot make it malformed';
export const SIGNATURE = 'the gateway signs every DPS itself; no request field reaches the signature';
export const WRITTEN = 'the gateway writes this field from the issuer\'s data and the number; no request field sets it';
export const wire = (bytes: Buffer) => JSON.stringify({ dpsXmlGZipB64: gzipSync(bytes).toString('base64') });
/** An element inserted into prest where TCInfoPrestador puts it (after IM, before fone, email, regTrib). */
export const intoPrest = (xml: string, element: string) => editAt(xml, ['infDPS', 'prest'], (o) => o.replace(/<(fone|email|regTrib)>/, (m) => element + m));

export const EVENT = 'a rule of the cancellation event (pedRegEvento, Anexo II), not of a sale: test/nfse-event-property.test.ts and test/authority-nfse-api.test.ts';

export const NFSE_BREAKERS: readonly NfseBreaker[] = [
  // foreign trade of services (comExt): Anexo I E0330 and its neighbours
  { kind: 'request', rule: 'E0330', code: 'E0330', applies: (c) => c.req.service.foreign_trade !== undefined && isServiceExport(c.req), break: (c) => (delete c.req.service.foreign_trade, 'service.foreign_trade') },
  ...(
    [
      ['E0333', 'mdPrestacao', '0'],
      ['E0341', 'mecAFComexP', '00'],
      ['E0343', 'mecAFComexT', '00'],
      ['E0345', 'movTempBens', '0'],
    ] as const
  ).map(([rule, tag, value]): NfseBreaker => ({
    kind: 'document', rule, code: rule, why: `the request's enumeration has no "unknown" (${value}) ${tag}`,
    applies: (_c, d) => d.xml.includes('<comExt>'), break: (d) => ({ xml: d.xml.replace(new RegExp(`<${tag}>[^<]*</${tag}>`), `<${tag}>${value}</${tag}>`) }),
  })),
  {
    kind: 'request', rule: 'E0352', code: 'E0352', applies: (c) => c.req.service.foreign_trade !== undefined,
    break: (c) => ((c.req.service.foreign_trade!.temporary_goods = 'declaracao_importacao'), delete c.req.service.foreign_trade!.import_declaration, 'service.foreign_trade.import_declaration'),
  },
  {
    kind: 'request', rule: 'E0354', code: 'E0354', applies: (c) => c.req.service.foreign_trade !== undefined,
    break: (c) => ((c.req.service.foreign_trade!.temporary_goods = 'nao'), (c.req.service.foreign_trade!.import_declaration = '123456789012'), 'service.foreign_trade.import_declaration'),
  },
  {
    kind: 'request', rule: 'E0356', code: 'E0356', applies: (c) => c.req.service.foreign_trade !== undefined,
    break: (c) => ((c.req.service.foreign_trade!.temporary_goods = 'declaracao_exportacao'), delete c.req.service.foreign_trade!.export_registration, 'service.foreign_trade.export_registration'),
  },
  { kind: 'document', rule: 'E1225', code: 'E1225', why: WIRE, break: (d) => ({ xml: d.xml, body: JSON.stringify({ dpsXmlGZipB64: 'not base64!' }) }) },
  { kind: 'document', rule: 'E1229', code: 'E1229', why: WIRE, applies: (_c, d) => /[\u0080-\uffff]/.test(d.xml), break: (d) => ({ xml: d.xml, body: wire(Buffer.from(d.xml, 'latin1')) }) },
  { kind: 'document', rule: 'E1226', code: 'E1226', why: WIRE, break: (d) => ({ xml: d.xml.replace('</DPS>', '</DPSx>') }) },
  { kind: 'document', rule: 'E1228', code: 'E1228', why: WIRE, break: (d) => ({ xml: d.xml.replace('<DPS ', '<DPS xmlns:x="urn:x" ') }) },
  { kind: 'document', rule: 'E1242', code: 'E1242', why: WIRE, break: (d) => ({ xml: d.xml.replace('<DPS ', '<NFSe ').replace('</DPS>', '</NFSe>') }) },
  { kind: 'document', rule: 'E1235', code: 'E1235', why: WRITTEN, break: (d) => ({ xml: setText(d.xml, ['infDPS', 'tpAmb'], () => '3') }) },
  { kind: 'document', rule: 'E0714', code: 'E0714', why: SIGNATURE, signature: true, break: (d) => ({ xml: setText(d.xml, ['infDPS', 'serv', 'cServ', 'xDescServ'], (v) => v + ' X') }) },
  { kind: 'document', rule: 'E0717', code: 'E0717', why: SIGNATURE, signature: true, break: (d) => ({ xml: editAt(d.xml, ['Signature'], () => '') }) },
  {
    kind: 'document', rule: 'E0718', code: 'E0718', why: 'the certificate is the issuer\'s, uploaded once (POST /v1/issuers/{id}/certificate); a sale cannot change it', signature: true,
    applies: (c) => c.ctx.issuer.taxId.length === 14, break: (d) => ({ xml: d.rebuild(otherCnpjKey()) }),
  },
  { kind: 'document', rule: 'E9996', code: 'E9996', why: WRITTEN, break: (d) => ({ xml: setText(d.xml, ['infDPS', 'tpEmit'], () => '2') }) },
  { kind: 'document', rule: 'E0121', code: 'E0121', why: WRITTEN, break: (d) => ({ xml: intoPrest(d.xml, '<xNome>Prestador de Servicos Ltda</xNome>') }) },
  {
    kind: 'document', rule: 'E0128', code: 'E0128', why: WRITTEN,
    break: (d) => ({ xml: intoPrest(d.xml, '<end><endNac><cMun>3550308</cMun><CEP>01001000</CEP></endNac><xLgr>Rua Um</xLgr><nro>1</nro><xBairro>Centro</xBairro></end>') }),
  },
  { kind: 'document', rule: 'E0004', code: 'E0004', why: 'the gateway writes the Id from the fields it writes', break: (d) => ({ xml: setText(d.xml, ['infDPS', 'nDPS'], (n) => (n.length < 15 ? n + '1' : n.slice(0, -1))) }) },
  {
    kind: 'request', rule: 'E0015', code: 'E0015',
    break: (c) => {
      c.req.competence_date = new Date(Date.parse(`${c.ctx.today!}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      return 'competence_date';
    },
  },
  { kind: 'excluded', rule: 'E0014', code: 'E0014', why: 'the authority\'s records: an NFS-e already issued from the same DPS Id (test/authority-nfse-api.test.ts)' },
  ...(['E0042', 'E0044', 'E0046'] as const).map((rule): Exclusion => ({ kind: 'excluded', rule, code: rule, why: 'the authority\'s records: the NFS-e a substitution replaces (authority-sim/nfse/substitution.ts)' })),
  ...(['E1989', 'E1980', 'E0812', 'E0813', 'E0815', 'E0816', 'E1827', 'E1831', 'E1843', 'E0840', 'E0831', 'E1983', 'E1991'] as const).map((rule): Exclusion => ({ kind: 'excluded', rule, code: rule, why: EVENT })),
];
