import { nfseKeyCheckDigit } from '../../src/fiscal/xml/nfse/dps-id.js';
import type { NfseBreaker, NfseCase } from './nfse-breakers.js';
import { otherLastDigit, plusCent, setText, textAt } from './rule-breakers.js';

// Breakers of the rules in authority-sim/enforced-nfse-ibscbs.ts (see rule-breakers.ts for the three kinds).

/** The DPS carries IBSCBS: the request's reform group, for an account of the 2026 reform. */
const reformed = (c: NfseCase) => c.req.reform !== undefined && c.ctx.taxReform;
const abroad = (c: NfseCase) => c.req.service.place_of_provision.country_code !== undefined;
const NOT_OFFERED = (what: string) => `the request offers no ${what}: the gateway never writes it`;

/** Elements after cIndOp (tpOper, gRefNFSe, tpEnteGov come there, in that order). */
const afterIndOp = (xml: string, elements: string) => xml.replace('</cIndOp>', `</cIndOp>${elements}`);
/** Elements before IBSCBS/valores (dest, imovel come there). */
const beforeValues = (xml: string, elements: string) => xml.replace('<valores><trib><gIBSCBS>', `${elements}<valores><trib><gIBSCBS>`);
const indDest1 = (xml: string) => setText(xml, ['infDPS', 'IBSCBS', 'indDest'], () => '1');
const cIndOp = (xml: string, code: string) => setText(xml, ['infDPS', 'IBSCBS', 'cIndOp'], () => code);
const dest = (inside: string) => `<dest>${inside}</dest>`;

const keyBody = '3304557' + '2' + '2' + '11222333000181' + '0000000000001' + '2601' + '123456789';
const VALID_KEY = keyBody + nfseKeyCheckDigit(keyBody);
const STREET = '<xLgr>Rua Um</xLgr><nro>1</nro><xBairro>Centro</xBairro>';
const CEP_END = `<end><CEP>01001000</CEP>${STREET}</end>`;
const EXT_END = `<end><endExt><cEndPost>10001</cEndPost><xCidade>New York</xCidade><xEstProvReg>NY</xEstProvReg></endExt>${STREET}</end>`;

/** One gReeRepRes document: its kind (dFeNacional, docFiscalOutro, docOutro) and fields to change. */
function reimbursement(o: { kind?: string; fornec?: string; dtEmiDoc?: string; dtCompDoc?: string; extra?: string; value?: string }): string {
  const kind = o.kind ?? '<docOutro><nDoc>1</nDoc><xDoc>Recibo</xDoc></docOutro>';
  return (
    `<documentos>${kind}${o.fornec ?? ''}<dtEmiDoc>${o.dtEmiDoc ?? '2026-01-05'}</dtEmiDoc><dtCompDoc>${o.dtCompDoc ?? '2026-01-05'}</dtCompDoc>` +
    `<tpReeRepRes>01</tpReeRepRes>${o.extra ?? ''}<vlrReeRepRes>${o.value ?? '0.01'}</vlrReeRepRes></documentos>`
  );
}
const withReimbursement = (xml: string, doc: string) => xml.replace('<valores><trib><gIBSCBS>', `<valores><gReeRepRes>${doc}</gReeRepRes><trib><gIBSCBS>`);

/** The DPS made of construction work: cTribNac 07.02.01 with its obra group (after comExt, else after cServ; E0370). */
function constructionWork(xml: string): string {
  const x = setText(xml, ['infDPS', 'serv', 'cServ', 'cTribNac'], () => '070201');
  const obra = '<obra><cObra>123456789012</cObra></obra>';
  return x.includes('</comExt>') ? x.replace('</comExt>', `</comExt>${obra}`) : x.replace('</cServ>', `</cServ>${obra}`);
}

type DocBreak = (xml: string) => string;
const doc = (rule: string, why: string, edit: DocBreak, applies: (c: NfseCase) => boolean = reformed): NfseBreaker => ({
  kind: 'document', rule, code: rule, why, applies, break: (d) => ({ xml: edit(d.xml) }),
});

export const NFSE_IBSCBS_BREAKERS: readonly NfseBreaker[] = [
  // the operation
  { kind: 'request', rule: 'E0901', code: 'E0901', applies: reformed, break: (c) => ((c.req.reform!.operation_code = '999999'), 'reform.operation_code') },
  { kind: 'request', rule: 'E0903', code: 'E0903', applies: reformed, break: (c) => ((c.req.service.national_code = '250501'), 'reform') },
  doc('E0904', NOT_OFFERED('tpOper'), (x) => afterIndOp(x, '<tpOper>1</tpOper>')),
  doc('E0905', NOT_OFFERED('tpOper nor government purchase'), (x) => afterIndOp(x, '<tpOper>2</tpOper><tpEnteGov>1</tpEnteGov>')),
  doc('E0906', NOT_OFFERED('gRefNFSe'), (x) => afterIndOp(x, `<gRefNFSe><refNFSe>${VALID_KEY}</refNFSe></gRefNFSe>`)),
  doc('E0907', NOT_OFFERED('gRefNFSe'), (x) => afterIndOp(x, `<tpOper>3</tpOper><gRefNFSe><refNFSe>${otherLastDigit(VALID_KEY)}</refNFSe></gRefNFSe><tpEnteGov>4</tpEnteGov>`)),
  // dest: the gateway writes indDest 0 (the taker is the recipient) and no dest
  doc('E0910', NOT_OFFERED('recipient other than the taker (dest)'), (x) => beforeValues(x, dest('<CPF>52998224725</CPF><xNome>Ana</xNome>'))),
  doc('E0911', NOT_OFFERED('recipient other than the taker (dest)'), (x) => beforeValues(indDest1(x), dest('<CNPJ>11222333000182</CNPJ><xNome>Ana</xNome>'))),
  doc('E0913', NOT_OFFERED('recipient other than the taker (dest)'), (x) => beforeValues(indDest1(x), dest('<CPF>52998224726</CPF><xNome>Ana</xNome>'))),
  doc('E0920', NOT_OFFERED('recipient other than the taker (dest)'), (x) =>
    beforeValues(indDest1(x), dest(`<CPF>52998224725</CPF><xNome>Ana</xNome><end><endNac><cMun>1234567</cMun><CEP>01001000</CEP></endNac>${STREET}</end>`))),
  doc('E0930', NOT_OFFERED('recipient other than the taker (dest)'), (x) => beforeValues(indDest1(x), dest('<CPF>52998224725</CPF><xNome>Ana</xNome><email>ana.example.com</email>'))),
  // imovel
  doc('E0931', NOT_OFFERED('imovel group'), (x) => beforeValues(constructionWork(x), '<imovel><cCIB>12345678</cCIB></imovel>')),
  { kind: 'request', rule: 'E0932', code: 'E0932', applies: reformed, break: (c) => ((c.req.reform!.operation_code = '020101'), 'reform.operation_code') },
  doc('E0928', NOT_OFFERED('imovel group'), (x) => beforeValues(x, '<imovel><cCIB>12345678</cCIB></imovel>'), (c) => reformed(c) && !['020101', '020201', '020301'].includes(c.req.reform!.operation_code)),
  doc('E0934', NOT_OFFERED('imovel group'), (x) => beforeValues(cIndOp(x, '020101'), `<imovel>${CEP_END}</imovel>`), (c) => reformed(c) && abroad(c)),
  doc('E0935', NOT_OFFERED('imovel group'), (x) => beforeValues(cIndOp(x, '020101'), `<imovel>${EXT_END}</imovel>`), (c) => reformed(c) && !abroad(c)),
  // valores/gReeRepRes
  doc('E0940', NOT_OFFERED('reimbursement (gReeRepRes)'), (x) => withReimbursement(x, reimbursement({ kind: '<dFeNacional><tipoChaveDFe>2</tipoChaveDFe><chaveDFe>1234567890</chaveDFe></dFeNacional>' }))),
  doc('E0942', NOT_OFFERED('reimbursement (gReeRepRes)'), (x) =>
    withReimbursement(x, reimbursement({ kind: '<docFiscalOutro><cMunDocFiscal>3304557</cMunDocFiscal><nDocFiscal>1</nDocFiscal><xDocFiscal>Nota</xDocFiscal></docFiscalOutro>' }))),
  doc('E0943', NOT_OFFERED('reimbursement (gReeRepRes)'), (x) =>
    withReimbursement(x, reimbursement({ kind: '<docFiscalOutro><cMunDocFiscal>1234567</cMunDocFiscal><nDocFiscal>1</nDocFiscal><xDocFiscal>Nota</xDocFiscal></docFiscalOutro>', dtEmiDoc: '2025-12-01', dtCompDoc: '2025-12-01' }))),
  doc('E0945', NOT_OFFERED('reimbursement (gReeRepRes)'), (x) => withReimbursement(x, reimbursement({ fornec: '<fornec><CNPJ>11222333000182</CNPJ><xNome>Fornecedor</xNome></fornec>' }))),
  doc('E0947', NOT_OFFERED('reimbursement (gReeRepRes)'), (x) => withReimbursement(x, reimbursement({ fornec: '<fornec><CPF>52998224726</CPF><xNome>Fornecedor</xNome></fornec>' }))),
  doc('E0950', NOT_OFFERED('reimbursement (gReeRepRes)'), (x) => withReimbursement(x, reimbursement({ dtEmiDoc: '2026-01-04' }))),
  doc('E0952', NOT_OFFERED('reimbursement (gReeRepRes)'), (x) => withReimbursement(x, reimbursement({ extra: '<xTpReeRepRes>Repasse a corretor</xTpReeRepRes>' }))),
  doc('E0953', NOT_OFFERED('reimbursement (gReeRepRes)'), (x) => withReimbursement(x, reimbursement({ value: plusCent(textAt(x, ['infDPS', 'valores', 'vServPrest', 'vServ'])!) }))),
  // valores/trib/gIBSCBS
  { kind: 'request', rule: 'E0959', code: 'E0959', applies: reformed, break: (c) => ((c.req.reform!.class_code = c.req.reform!.cst === '010' ? '000001' : '010001'), 'reform.class_code') },
  doc('E0970', NOT_OFFERED('regular taxation group (gTribRegular)'), (x) => x.replace('</cClassTrib></gIBSCBS>', '</cClassTrib><gTribRegular><CSTReg>000</CSTReg><cClassTribReg>010001</cClassTribReg></gTribRegular></gIBSCBS>')),
];
