import type { NfeContext, NfeDocumentContext } from '../../src/documents/nfe/domain/nfe-context.js';
import type { NfeRequest } from '../../src/documents/nfe/domain/nfe-request.js';
import { NUMERIC_ISSUER, testSigningKey } from './nfce-fixtures.js';
import { reformTablesInForce } from '../../src/fiscal/reform/reform-tables-in-force.js';

// A ready NF-e request (SP -> RJ sale to a non-taxpayer final consumer: DIFAL) and its contexts.
// Interstate: no vehicle (MOC X02-20, 868).

export const NFE_CONTEXT: NfeContext = { issuer: NUMERIC_ISSUER, tpAmb: 2, taxReform: false, today: '2026-07-15', reformTables: reformTablesInForce() };

export function nfeDocumentContext(overrides: Partial<NfeDocumentContext> = {}): NfeDocumentContext {
  return { serie: 1, nNF: 1234, emittedAt: new Date('2026-07-15T15:04:05Z'), signingKey: testSigningKey(), cNF: '40521937', ...overrides };
}

export function interstateRequest(): NfeRequest {
  return {
    issuer_id: 'iss_test',
    external_ref: 'pedido-77',
    natureza_operacao: 'VENDA DE MERCADORIA',
    presenca: 'internet',
    destinatario: {
      cpf: '52998224725', name: 'Maria da Silva', indicador_ie: 'nao_contribuinte', email: 'maria@example.com',
      address: { street: 'Rua B', number: '2', district: 'Centro', city_code: '3304557', city: 'Rio de Janeiro', uf: 'RJ', cep: '20010000' },
    },
    items: [
      { description: 'Notebook', quantity: 1, unit_price: 3000, ncm: '84713012', cfop: '6108', unit: 'UN', cst_icms: '00', pICMS: 12, ipi: { cst: '50', rate: 10 }, difal: { destination_rate: 20, fcp_rate: 2 } },
      { description: 'Mouse', quantity: 2, unit_price: 50.5, ncm: '84716053', cfop: '6108', unit: 'UN', cst_icms: '40' },
    ],
    freight: 40,
    transporte: { modalidade: 'emitente', transportadora: { cnpj: '10422724000187', name: 'Transportes Rapidos', uf: 'SP' }, volumes: [{ quantity: 2, species: 'CAIXA', net_weight: 3.5, gross_weight: 4.25 }] },
    payment: { method: 'boleto', amount: 3444.87 },
    aut_xml: ['10422724000187'],
  };
}

/**
 * An export of 2 electric motors to a foreign recipient in Argentina (BACEN 0639), CFOP 7101, ICMS
 * CST 41 (MOC ZA01: the exporta group names the state and place of shipment when `shipment` is given).
 */
export function exportRequest(unitPrice: number, shipment?: NfeRequest['export']): NfeRequest {
  const req = interstateRequest();
  req.destinatario = {
    id_estrangeiro: 'AR30712345678', name: 'Importadora del Sur SA', indicador_ie: 'nao_contribuinte',
    address: { street: 'Avenida Corrientes', number: '1234', district: 'San Nicolas', city: 'Buenos Aires', country_code: '639', country: 'Argentina' },
  };
  req.consumidor_final = false;
  req.presenca = 'nao_se_aplica';
  req.items = [{ description: 'Motor eletrico', quantity: 2, unit_price: unitPrice, ncm: '85015210', cfop: '7101', unit: 'UN', cst_icms: '41' }];
  req.freight = undefined;
  req.transporte = { modalidade: 'emitente', transportadora: { cnpj: '10422724000187', name: 'Transportes Rapidos', uf: 'SP' } };
  req.payment = { method: 'boleto', amount: 2 * unitPrice };
  if (shipment) req.export = shipment;
  return req;
}
