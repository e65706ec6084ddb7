import type { Note } from '../domain/note.js';
import { consultationUrl } from '../../../danfe/nfse/index.js';
import type { BuyerMailKind } from '../../../infra/storage/repositories/buyer-mail-repository.js';

// What the buyer reads (docs/guides/email.md): Portuguese text, the facts of the note as
// the authority registered them, and the files attached. Pure: the sender adds the transport.

/** The request fields this mail reads: the sale's override and the buyer's name and address of each family. */
interface MailRequest {
  email?: { send?: boolean; to?: string };
  destinatario?: { name?: string; email?: string };
  consumer?: { name?: string; email?: string };
  tomador?: { name?: string; email?: string };
}

const LABEL = { 65: 'NFC-e', 55: 'NF-e', 99: 'NFS-e' } as const;

export const noteLabel = (model: number): string => LABEL[model as keyof typeof LABEL] ?? 'Nota';

/** The buyer of the sale: `email.to` of the sale first, else the recipient's, consumer's or taker's e-mail. */
export function buyerOf(row: Pick<Note, 'request'>): { name: string | null; address: string | null } {
  const r = (row.request ?? {}) as MailRequest;
  const party = r.destinatario ?? r.consumer ?? r.tomador;
  const address = r.email?.to?.trim() || party?.email?.trim() || null;
  return { name: party?.name?.trim() || null, address };
}

/** The number the buyer knows the note by: the NFS-e's own number (nNFSe) once Sefin gave it, else the note's. */
const numberOf = (row: Note): string => (row.model === 99 && row.nfse_number ? row.nfse_number : String(row.number));

/** The key that finds the note at the authority: the 50-digit NFS-e key, or the 44-digit access key. */
export const keyOf = (row: Note): string => (row.model === 99 && row.nfse_key ? row.nfse_key : row.access_key);

/** The key in groups of four, as the DANFE prints it. */
const grouped = (key: string): string => key.replace(/(.{4})(?=.)/g, '$1 ');

const brl = (v: number): string => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(v).replace(/\u00a0/g, ' ');

/** dhEmi as the issuer's local time it carries (YYYY-MM-DDThh:mm:ss±hh:mm -> DD/MM/YYYY hh:mm). */
function localDate(dhEmi: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(dhEmi);
  return m ? `${m[3]}/${m[2]}/${m[1]} ${m[4]}:${m[5]}` : dhEmi;
}

/** The note's total: vNF of the NF-e and NFC-e (W16), the net value vLiq of an NFS-e (else the service's vServ). */
function totalOf(row: Note): number | null {
  const t = row.totals ?? {};
  const v = row.model === 99 ? (t['vLiq'] ?? t['vServ']) : t['vNF'];
  return typeof v === 'number' ? v : null;
}

/**
 * Where the buyer checks the note: the NFC-e's consultation address of its state (urlChave, the one its
 * DANFE prints, docs/fiscal/qrcode.md), the national NF-e portal the DANFE NF-e names (danfe/nfe/nfe-header.ts), or
 * the NFS-e national public consultation with the key (the DANFSe's QR code, danfe/nfse/danfse-labels.ts).
 */
export function consultLink(row: Note): string {
  if (row.model === 65 && row.url_chave) return row.url_chave;
  if (row.model === 99) return consultationUrl(keyOf(row));
  return 'https://www.nfe.fazenda.gov.br/portal';
}

export interface BuyerMailText {
  subject: string;
  text: string;
}

export function buyerMailText(row: Note, kind: BuyerMailKind, issuerName: string, issuerCnpj: string): BuyerMailText {
  const label = noteLabel(row.model);
  const number = numberOf(row);
  const buyer = buyerOf(row);
  const total = totalOf(row);
  const hello = buyer.name ? `Olá, ${buyer.name}.` : 'Olá.';
  const facts = [
    `Chave de acesso: ${grouped(keyOf(row))}`,
    `Número: ${number}${row.model === 99 ? '' : `   Série: ${row.serie}`}`,
    `Data de emissão: ${localDate(row.dh_emi)}`,
    ...(total === null ? [] : [`Valor total: ${brl(total)}`]),
  ];
  const test = row.tp_amb === 2 ? ['', 'Nota emitida em ambiente de homologação (teste), sem valor fiscal.'] : [];
  const footer = ['', `Consulte a nota em: ${consultLink(row)}`, '', `${issuerName} (CNPJ ${issuerCnpj})`, 'Mensagem automática: não responda a este e-mail.'];
  if (kind === 'canceled') {
    const c = row.cancellation && 'protocolo' in row.cancellation ? row.cancellation : null;
    return {
      subject: `Cancelamento da ${label} nº ${number} de ${issuerName}`,
      text: [
        hello,
        '',
        `A ${label} nº ${number} emitida por ${issuerName} foi cancelada junto à autoridade fiscal e não tem mais validade.`,
        '',
        ...facts,
        ...(c ? [`Protocolo do cancelamento: ${c.protocolo}`, `Motivo: ${c.reason}`] : []),
        '',
        'Em anexo, o XML do evento de cancelamento registrado pela autoridade fiscal.',
        ...test,
        ...footer,
      ].join('\n'),
    };
  }
  return {
    subject: `${label} nº ${number} de ${issuerName}`,
    text: [
      hello,
      '',
      `Segue a ${label} nº ${number} emitida por ${issuerName}.`,
      '',
      ...facts,
      ...(row.protocolo ? [`Protocolo de autorização: ${row.protocolo}`] : []),
      '',
      `Em anexo: o ${row.model === 99 ? 'DANFSe' : 'DANFE'} em PDF e o XML autorizado. Guarde o XML: ele é o documento fiscal; o PDF é a sua representação impressa.`,
      ...test,
      ...footer,
    ].join('\n'),
  };
}

/** The attached files' names: the key and what the file is, as the authority's own tools name them. */
export function attachmentNames(row: Note): { pdf: string; xml: string; cancellation: string } {
  const key = keyOf(row);
  if (row.model === 99) return { pdf: `${key}-DANFSe.pdf`, xml: `${key}-NFSe.xml`, cancellation: `${key}-evento-cancelamento.xml` };
  return { pdf: `${key}-DANFE.pdf`, xml: `${key}-nfeProc.xml`, cancellation: `${key}-procEventoNFe.xml` };
}
