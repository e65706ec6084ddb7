// The three people of an NFS-e: the issuer (emitente/prestador: Sefin's emit with the DPS's tax
// regime), the taker (tomador) and the intermediary (intermediário, only when the DPS has one).
import type { NfseParty, NfseView } from '../../fiscal/xml/nfse/nfse-view.js';
import { formatCnpj, formatCpf } from '../br-format.js';
import { MM } from '../qr-symbol.js';
import { CONTENT_WIDTH, MARGIN, ROW, type Sheet } from '../nfe/nfe-sheet.js';
import { cep, documentLabel, NONE, orNone, partyDocument, phone, place, simplesText, specialRegimeText } from './danfse-labels.js';

const NAME_W = 106;
const SIDE_W = 45;

interface PartyLines {
  name: string;
  docLabel: string;
  doc: string;
  im: string;
  address: string;
  municipality: string;
  cep: string;
  phone: string;
  email: string;
  /** The last row's two right-hand fields. */
  extra: Array<[string, string]>;
}

const street = (a: { xLgr: string; nro: string; xCpl?: string; xBairro: string }) => [`${a.xLgr}, ${a.nro}`, a.xCpl, a.xBairro].filter(Boolean).join(' - ');

function issuerLines(view: NfseView): PartyLines {
  const { emit } = view;
  const a = emit.enderNac;
  const reg = view.dps.prest.regTrib;
  return {
    name: emit.xFant ? `${emit.xNome} (${emit.xFant})` : emit.xNome,
    docLabel: 'CNPJ' in emit.id ? 'CNPJ' : 'CPF',
    doc: 'CNPJ' in emit.id ? formatCnpj(emit.id.CNPJ) : formatCpf(emit.id.CPF),
    im: orNone(emit.IM ?? view.dps.prest.IM),
    address: a ? street(a) : NONE,
    municipality: a ? `${place(view, a.cMun)} / ${a.UF}` : NONE,
    cep: cep(a?.CEP),
    phone: phone(emit.fone ?? view.dps.prest.fone),
    email: orNone(emit.email ?? view.dps.prest.email),
    extra: [
      ['Simples Nacional', simplesText(reg?.opSimpNac)],
      ['Regime especial de tributação', specialRegimeText(reg?.regEspTrib)],
    ],
  };
}

function personLines(view: NfseView, p: NfseParty): PartyLines {
  const a = p.end;
  const abroad = a?.endExt;
  return {
    name: orNone(p.xNome),
    docLabel: documentLabel(p.id),
    doc: partyDocument(p.id),
    im: orNone(p.IM),
    address: a ? street(a) : NONE,
    municipality: a?.endNac ? place(view, a.endNac.cMun) : abroad ? `${abroad.xCidade} - ${abroad.xEstProvReg} (${abroad.cPais})` : NONE,
    cep: a?.endNac ? cep(a.endNac.CEP) : abroad ? abroad.cEndPost : NONE,
    phone: phone(p.fone),
    email: orNone(p.email),
    extra: [['CAEPF', orNone(p.CAEPF)]],
  };
}

function drawParty(sheet: Sheet, title: string, lines: PartyLines, y: number): number {
  let at = sheet.section(y, title);
  at = sheet.fields(at, [
    [NAME_W, 'Nome / Nome empresarial', lines.name, { font: 'Helvetica-Bold' }],
    [SIDE_W, lines.docLabel, lines.doc],
    [SIDE_W, 'Inscrição municipal', lines.im],
  ]);
  at = sheet.fields(at, [
    [NAME_W, 'Endereço', lines.address],
    [SIDE_W, 'Município', lines.municipality],
    [SIDE_W, 'CEP', lines.cep],
  ]);
  const extraW = lines.extra.length * SIDE_W;
  return sheet.fields(at, [
    [40, 'Telefone', lines.phone],
    [CONTENT_WIDTH / MM - 40 - extraW, 'E-mail', lines.email],
    ...lines.extra.map(([label, value]): [number, string, string] => [SIDE_W, label, value]),
  ]);
}

/** Emitente, tomador (or a line saying there is none) and intermediário when present. */
export function drawParties(sheet: Sheet, view: NfseView, y: number): number {
  let at = drawParty(sheet, 'EMITENTE DA NFS-e / PRESTADOR DO SERVIÇO', issuerLines(view), y);
  const { toma, interm } = view.dps;
  if (toma) at = drawParty(sheet, 'TOMADOR DO SERVIÇO', personLines(view, toma), at);
  else {
    at = sheet.section(at, 'TOMADOR DO SERVIÇO');
    sheet.box(MARGIN.x, at, CONTENT_WIDTH, ROW * 0.7);
    sheet.text('TOMADOR DO SERVIÇO NÃO IDENTIFICADO NA NFS-e', MARGIN.x, at + 3, { size: 7, width: CONTENT_WIDTH, align: 'center' });
    at += ROW * 0.7;
  }
  if (interm) at = drawParty(sheet, 'INTERMEDIÁRIO DO SERVIÇO', personLines(view, interm), at);
  return at;
}
