import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { emitNfeSettled, invoice } from './support/nfe-flow.js';
import { emitSettled, readyIssuer, sale } from './support/nfce-flow.js';
import { issueNfseSettled, nfseIssuer, serviceInvoice } from './support/nfse-flow.js';
import { startSmtpCatcher, type ReceivedMail, type SmtpCatcher } from './support/smtp-server.js';
import { attachment, headerText, mimeParts, plainText } from './support/mime-parts.js';
import { pdfWorkspace } from './support/pdf-tools.js';
import { NFSE_ID_ELEMENTS, xmllint, xmlsecVerify } from './support/xml-tools.js';
import { eventually } from './support/webhook-receiver.js';
import { buyerMailer } from '../src/documents/notes/services/send-buyer-mail.js';
import type { Job } from '../src/infra/queue/queue.js';

// The buyer gets the DANFE and the authorized XML by e-mail, and a notice when the note
// is canceled; a real SMTP server on loopback receives them, poppler reads the PDF, xmllint and xmlsec1
// check the XML against the official schema and its signatures.

const uniq = () => Math.random().toString(36).slice(2, 10);

describe('buyer e-mail: DANFE and XML to the buyer over real SMTP', () => {
  let smtp: SmtpCatcher;
  let t: TestApp;
  let auth: { authorization: string };
  let issuerId: string;
  const pdf = pdfWorkspace('buyer-mail-');
  const rcptAttempts: string[] = [];
  let refuseNextData = 0;

  beforeAll(async () => {
    smtp = await startSmtpCatcher({
      refuseRecipient: (address) => {
        rcptAttempts.push(address.toLowerCase());
        return address.startsWith('sem-caixa-') ? 550 : undefined;
      },
      refuseData: () => (refuseNextData > 0 ? (refuseNextData--, 451) : undefined),
    });
    t = await createTestApp({ role: 'all', env: { SMTP_URL: smtp.url } });
    ({ auth } = await t.newAccount());
    issuerId = await readyIssuer(t, auth);
  });
  afterAll(async () => {
    await t.runtime.close();
    await smtp.close();
    pdf.cleanup();
  });

  const mailsTo = (address: string) => smtp.mails.filter((m) => m.to.toLowerCase().split(',').includes(address.toLowerCase()));
  const mailTo = (address: string, nth = 1): Promise<ReceivedMail> =>
    eventually(async () => mailsTo(address)[nth - 1] ?? null, 30_000, () => `mail ${nth} to ${address}`);
  const recordsOf = async (noteId: string) =>
    (await t.app.inject({ method: 'GET', url: `/v1/buyer-emails?note_id=${noteId}`, headers: auth })).json().data as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const settledRecord = (noteId: string, kind = 'authorized') =>
    eventually(async () => (await recordsOf(noteId)).find((r) => r.kind === kind && !['pending', 'sending'].includes(r.state)) ?? null, 30_000, () => `the ${kind} e-mail of ${noteId} to settle`);
  const setSettings = (body: object) => t.app.inject({ method: 'PUT', url: `/v1/issuers/${issuerId}/buyer-email`, headers: auth, payload: body });

  let accountant: string;
  it('sets the issuer\'s settings: off until turned on; a bad address is a 422 naming the field', async () => {
    const before = await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}/buyer-email`, headers: auth });
    expect(before.json()).toMatchObject({ enabled: false, sender_name: null, accountant_email: null, updated_at: null });
    const bad = await setSettings({ enabled: true, accountant_email: 'contador-sem-arroba' });
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json().details)).toContain('accountant_email');
    accountant = `contador-${uniq()}@example.com`;
    const ok = await setSettings({ enabled: true, sender_name: 'Loja Exemplo Vendas', accountant_email: accountant });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ enabled: true, sender_name: 'Loja Exemplo Vendas', accountant_email: accountant });
  });

  let nfe: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  let buyer: string;
  it('mails an authorized NF-e to its recipient with the DANFE and the nfeProc, the accountant in Bcc', async () => {
    buyer = `compras-${uniq()}@example.com`;
    const base = invoice(issuerId);
    ({ note: nfe } = await emitNfeSettled(t, auth, { ...base, destinatario: { ...base.destinatario, email: buyer } }));
    expect(nfe.status).toBe('authorized');
    const mail = await mailTo(buyer);
    // The envelope carries the accountant (Bcc); the header does not show it.
    expect(mail.to.toLowerCase().split(',').sort()).toEqual([buyer, accountant].sort());
    const { headers, parts } = mimeParts(mail.raw);
    expect(headers['bcc']).toBeUndefined();
    expect(headerText(headers['subject']!)).toBe(`NF-e nº ${nfe.number} de ${await issuerName()}`);
    expect(headerText(headers['from']!)).toMatch(/Loja Exemplo Vendas/);
    const text = plainText(parts);
    expect(text).toContain(nfe.access_key.replace(/(.{4})(?=.)/g, '$1 '));
    // 10 x 18,90 + 5 x 4,50 = 189,00 + 22,50 = 211,50 (the invoice of nfe-flow.ts, no freight or discount).
    expect(text).toContain('Valor total: R$ 211,50');
    expect(text).toContain('https://www.nfe.fazenda.gov.br/portal');
    const danfe = attachment(parts, `${nfe.access_key}-DANFE.pdf`);
    expect(danfe?.headers['content-type']).toMatch(/application\/pdf/);
    expect((await pdf.pdfText(danfe!.body)).replace(/\s+/g, '')).toContain(nfe.access_key);
    const xml = attachment(parts, `${nfe.access_key}-nfeProc.xml`)!.body.toString('utf8');
    expect(xml).toMatch(/^<nfeProc/);
    expect(await xmllint(xml, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(xml)).toBe('');
    expect(await settledRecord(nfe.id)).toMatchObject({ state: 'sent', to: buyer, bcc: accountant, attempts: 1 });
  });

  it('sends nothing more when the job runs again (a retry, a lease taken over)', async () => {
    const { rows } = await t.db.query<{ event_id: string }>(`SELECT event_id FROM buyer_mails WHERE note_id = $1 AND kind = 'authorized'`, [nfe.id]);
    const mailer = buyerMailer(t.ctx);
    try {
      const job: Job<{ event_id: string }> = { id: 'job_again', kind: 'notes.buyer-mail', payload: { event_id: rows[0]!.event_id }, attempts: 2, max_attempts: 12, run_at: new Date() };
      await mailer.send(job);
      await mailer.send(job);
    } finally {
      mailer.close();
    }
    expect(mailsTo(buyer)).toHaveLength(1);
    expect(await recordsOf(nfe.id)).toHaveLength(1);
  });

  it('tries again after a temporary refusal (451) and delivers exactly one message', async () => {
    const other = `retry-${uniq()}@example.com`;
    refuseNextData = 1;
    const base = invoice(issuerId);
    const { note } = await emitNfeSettled(t, auth, { ...base, destinatario: { ...base.destinatario, email: other } });
    await mailTo(other);
    const record = await settledRecord(note.id);
    expect(record).toMatchObject({ state: 'sent', attempts: 2 });
    expect(mailsTo(other)).toHaveLength(1);
  });

  it('sends the cancellation notice with the procEventoNFe', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/v1/nfe/${nfe.id}/cancel`, headers: auth, payload: { reason: 'Pedido cancelado pelo cliente antes do envio' } });
    expect([200, 202], res.body).toContain(res.statusCode);
    const mail = await mailTo(buyer, 2);
    const { headers, parts } = mimeParts(mail.raw);
    expect(headerText(headers['subject']!)).toBe(`Cancelamento da NF-e nº ${nfe.number} de ${await issuerName()}`);
    expect(plainText(parts)).toContain('Motivo: Pedido cancelado pelo cliente antes do envio');
    const xml = attachment(parts, `${nfe.access_key}-procEventoNFe.xml`)!.body.toString('utf8');
    expect(xml).toMatch(/^<procEventoNFe/);
    expect(await xmllint(xml, 'PL_009_V4', 'procEventoCancNFe_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(xml)).toBe('');
    expect(await settledRecord(nfe.id, 'canceled')).toMatchObject({ state: 'sent', to: buyer });
  });

  it('puts an address refused with 550 on the bounce list, mails it no more, and takes it off through the API', async () => {
    const gone = `sem-caixa-${uniq()}@example.com`;
    const base = invoice(issuerId);
    const first = (await emitNfeSettled(t, auth, { ...base, destinatario: { ...base.destinatario, email: gone } })).note;
    expect(await settledRecord(first.id)).toMatchObject({ state: 'bounced', to: gone });
    const list = (await t.app.inject({ method: 'GET', url: '/v1/email-bounces', headers: auth })).json();
    expect(list.data).toContainEqual(expect.objectContaining({ address: gone, smtp_code: 550, note_id: first.id }));
    const tried = rcptAttempts.filter((a) => a === gone).length;

    const second = (await emitNfeSettled(t, auth, { ...invoice(issuerId), destinatario: { ...base.destinatario, email: gone.toUpperCase() } })).note;
    expect(await settledRecord(second.id)).toMatchObject({ state: 'skipped', reason: 'address_bounced' });
    expect(rcptAttempts.filter((a) => a === gone).length).toBe(tried);

    const del = await t.app.inject({ method: 'DELETE', url: `/v1/email-bounces/${encodeURIComponent(gone)}`, headers: auth });
    expect(del.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/v1/email-bounces', headers: auth })).json().data).toEqual([]);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/email-bounces/${encodeURIComponent(gone)}`, headers: auth })).statusCode).toBe(404);
  });

  it('sends nothing for a sale that says email.send false: no job, no record', async () => {
    const base = invoice(issuerId);
    const quiet = `quieto-${uniq()}@example.com`;
    const { note } = await emitNfeSettled(t, auth, { ...base, destinatario: { ...base.destinatario, email: quiet }, email: { send: false } });
    expect(note.status).toBe('authorized');
    // The trigger runs in the statement that authorized the note: once authorized, no job is definitive.
    const jobs = await t.db.query(`SELECT 1 FROM jobs WHERE dedupe_key = $1`, [`buyer-mail:${note.id}:authorized`]);
    expect(jobs.rows).toHaveLength(0);
    expect(await recordsOf(note.id)).toEqual([]);
    expect(mailsTo(quiet)).toHaveLength(0);
  });

  it('mails an NFC-e to the address the sale gives (email.to) with the roll DANFE; the consumer\'s e-mail is the fallback', async () => {
    const consumer = `consumidor-${uniq()}@example.com`;
    const { note } = await emitSettled(t, auth, sale(issuerId, { consumer: { cpf: '52998224725', name: 'Maria da Silva', email: `outro-${uniq()}@example.com` }, email: { to: consumer } }));
    expect(note.status).toBe('authorized');
    const { headers, parts } = mimeParts((await mailTo(consumer)).raw);
    expect(headerText(headers['subject']!)).toBe(`NFC-e nº ${note.number} de ${await issuerName()}`);
    const text = plainText(parts);
    expect(text).toContain('Olá, Maria da Silva.');
    // 2 x 18,90 + 0,35 x 16,50 = 37,80 + 5,775 -> 5,78 (item value rounded to cents) = 43,58.
    expect(text).toContain('Valor total: R$ 43,58');
    const danfe = attachment(parts, `${note.access_key}-DANFE.pdf`)!;
    expect((await pdf.pdfText(danfe.body)).replace(/\s+/g, '')).toContain(note.access_key);
    const xml = attachment(parts, `${note.access_key}-nfeProc.xml`)!.body.toString('utf8');
    // The consultation address is the state's urlChave the NFC-e carries (docs/fiscal/qrcode.md), the one its DANFE prints.
    const urlChave = /<urlChave>([^<]+)<\/urlChave>/.exec(xml)?.[1];
    expect(urlChave).toMatch(/^https?:\/\//);
    expect(text).toContain(`Consulte a nota em: ${urlChave}`);
    expect(await xmllint(xml, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(xml)).toBe('');
  });

  it('sends for a sale that says email.send true where the issuer turned buyer e-mail off', async () => {
    expect((await setSettings({ enabled: false })).json()).toMatchObject({ enabled: false, sender_name: 'Loja Exemplo Vendas' });
    const plain = `desligado-${uniq()}@example.com`;
    const forced = `forcado-${uniq()}@example.com`;
    const off = (await emitSettled(t, auth, sale(issuerId, { consumer: { cpf: '52998224725', email: plain } }))).note;
    const on = (await emitSettled(t, auth, sale(issuerId, { consumer: { cpf: '52998224725', email: forced }, email: { send: true } }))).note;
    await mailTo(forced);
    expect(await settledRecord(on.id)).toMatchObject({ state: 'sent' });
    expect((await t.db.query(`SELECT 1 FROM jobs WHERE dedupe_key = $1`, [`buyer-mail:${off.id}:authorized`])).rows).toHaveLength(0);
    expect(mailsTo(plain)).toHaveLength(0);
  });

  it('mails an NFS-e to its taker: the DANFSe and the NFS-e Sefin issued, named by its NFS-e number and key', async () => {
    const nfseIssuerId = await nfseIssuer(t, auth);
    const taker = `tomador-${uniq()}@example.com`;
    const base = serviceInvoice(nfseIssuerId);
    const { note } = await issueNfseSettled(t, auth, { ...base, tomador: { ...base.tomador, email: taker }, email: { send: true } });
    expect(note.status).toBe('authorized');
    const { headers, parts } = mimeParts((await mailTo(taker)).raw);
    const issuer = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${nfseIssuerId}`, headers: auth })).json();
    expect(headerText(headers['subject']!)).toBe(`NFS-e nº ${note.number} de ${issuer.nome_fantasia || issuer.razao_social}`);
    const text = plainText(parts);
    expect(text).toContain(`https://www.nfse.gov.br/ConsultaPublica/?tpc=1&chave=${note.access_key}`);
    const danfse = attachment(parts, `${note.access_key}-DANFSe.pdf`)!;
    expect((await pdf.pdfText(danfse.body)).replace(/\s+/g, '')).toContain(note.access_key);
    const xml = attachment(parts, `${note.access_key}-NFSe.xml`)!.body.toString('utf8');
    expect(await xmllint(xml, 'NFSe_v1.01', 'NFSe_v1.01.xsd')).toBe('');
    expect(await xmlsecVerify(xml, NFSE_ID_ELEMENTS, "/*[local-name()='NFSe']/*[local-name()='Signature']")).toBe('');
  });

  async function issuerName(): Promise<string> {
    const issuer = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json();
    return issuer.nome_fantasia || issuer.razao_social;
  }
});
