import type { Note } from '../domain/note.js';
import { describe, expect, it } from 'vitest';
import { attachmentNames, buyerMailText, buyerOf, consultLink } from './buyer-mail-text.js';

// The NFS-e's mail names what Sefin assigned (docs/fiscal/nfse-national.md#access-key): its own number nNFSe and the 50-digit key,
// not the DPS number and Id the note was numbered under; the link is the national public consultation.
const NFSE_KEY = '33045572211222333000181000000000000126110000000019';
const nfse = {
  model: 99, number: 7, serie: 900, access_key: 'DPS330455721122233300018100900000000000000007', nfse_key: NFSE_KEY, nfse_number: '126',
  tp_amb: 2, dh_emi: '2026-11-20T09:30:00-03:00', protocolo: null, totals: { vServ: 1500, vLiq: 1425.5 },
  request: { tomador: { cnpj: '11222333000181', name: 'Cliente Servicos Ltda', email: 'financeiro@cliente.com.br' } },
  cancellation: { protocolo: '123456789012345', reason: 'Servico nao prestado', canceled_at: '2026-11-21T12:00:00.000Z' },
} as unknown as Note;

describe('buyer e-mail text', () => {
  it('names an NFS-e by its NFS-e number and key, its net value, the national consultation', () => {
    const { subject, text } = buyerMailText(nfse, 'authorized', 'Consultoria Exemplo', '11222333000181');
    expect(subject).toBe('NFS-e nº 126 de Consultoria Exemplo');
    expect(text).toContain('Olá, Cliente Servicos Ltda.');
    expect(text).toContain('Chave de acesso: 3304 5572 2112 2233 3000 1810 0000 0000 0001 2611 0000 0000 19');
    expect(text).toContain('Data de emissão: 20/11/2026 09:30');
    expect(text).toContain('Valor total: R$ 1.425,50');
    expect(text).toContain('DANFSe em PDF');
    expect(text).toContain('sem valor fiscal');
    expect(consultLink(nfse)).toBe(`https://www.nfse.gov.br/ConsultaPublica/?tpc=1&chave=${NFSE_KEY}`);
    expect(attachmentNames(nfse)).toEqual({ pdf: `${NFSE_KEY}-DANFSe.pdf`, xml: `${NFSE_KEY}-NFSe.xml`, cancellation: `${NFSE_KEY}-evento-cancelamento.xml` });
  });

  it('announces a cancellation with its protocol and reason', () => {
    const { subject, text } = buyerMailText(nfse, 'canceled', 'Consultoria Exemplo', '11222333000181');
    expect(subject).toBe('Cancelamento da NFS-e nº 126 de Consultoria Exemplo');
    expect(text).toContain('foi cancelada');
    expect(text).toContain('Protocolo do cancelamento: 123456789012345');
    expect(text).toContain('Motivo: Servico nao prestado');
  });

  it('takes the sale\'s email.to over the buyer\'s own address', () => {
    expect(buyerOf(nfse).address).toBe('financeiro@cliente.com.br');
    expect(buyerOf({ request: { ...(nfse.request as object), email: { to: 'outro@cliente.com.br' } } }).address).toBe('outro@cliente.com.br');
    expect(buyerOf({ request: { destinatario: { name: 'X' } } }).address).toBeNull();
  });
});
