import type { NfeRequest } from '../../src/documents/nfe/domain/nfe-request.js';
import { accessKeyCheckDigit } from '../../src/fiscal/layout/access-key.js';
import { NFE_CONTEXT } from './nfe-fixtures.js';

// A nota de crédito and a nota de débito of the tax reform (finNFe 5 / 6, NT 2025.002-RTC) for the
// gateway and simulator tests (docs/fiscal/credit-debit-notes.md).

const ISSUER_CNPJ = NFE_CONTEXT.issuer.cnpj;

/** The access key of an NF-e of this issuer (SP, 35) of Oct 2026, serie 1, number n. */
export function ownKey(n: number, model = '55', cnpj = ISSUER_CNPJ, cUF = '35'): string {
  const body = `${cUF}2610${cnpj}${model}001${String(n).padStart(9, '0')}1${String(10_000_000 + n).slice(-8)}`;
  return body + accessKeyCheckDigit(body);
}

export const recipient: NfeRequest['destinatario'] = {
  cnpj: '11222333000181', name: 'Mercado Boa Compra Ltda', indicador_ie: 'contribuinte', ie: '112006603110',
  address: { street: 'Rua A', number: '1', district: 'Centro', city_code: '3509502', city: 'Campinas', uf: 'SP', cep: '13010000' },
};

/** A nota de crédito of type 04 (redução de valores): R$ 200.00 taken off the note `ref` of this issuer. */
export function creditNote(extra: Partial<NfeRequest> = {}): NfeRequest {
  return {
    issuer_id: 'iss_test', external_ref: 'credito-1', natureza_operacao: 'NOTA DE CREDITO - REDUCAO DE VALOR',
    finalidade: 'credito', credit_type: '04', referenced_documents: [ownKey(41)], presenca: 'nao_se_aplica', destinatario: recipient,
    items: [{ description: 'Reducao de valor do pedido 41', quantity: 1, unit_price: 200, ncm: '09012100', cfop: '1949', unit: 'UN' }],
    payment: { method: 'sem_pagamento', amount: 0 },
    ...extra,
  };
}

/** A nota de débito of type 06 (pagamento antecipado): R$ 500.00 received before the goods. */
export function debitNote(extra: Partial<NfeRequest> = {}): NfeRequest {
  return {
    issuer_id: 'iss_test', external_ref: 'debito-1', natureza_operacao: 'NOTA DE DEBITO - PAGAMENTO ANTECIPADO',
    finalidade: 'debito', debit_type: '06', presenca: 'nao_se_aplica', destinatario: recipient,
    items: [{ description: 'Antecipacao do pedido 77', quantity: 1, unit_price: 500, ncm: '09012100', cfop: '5949', unit: 'UN' }],
    payment: { method: 'pix', amount: 500 },
    ...extra,
  };
}

