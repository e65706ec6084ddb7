import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { NfseRequestSchema } from './nfse-request.js';

const request = {
  issuer_id: 'iss_1',
  competence_date: '2026-03-10',
  service: { national_code: '010101', description: 'Software', place_of_provision: { city_code: '3304557' } },
  tomador: { cpf: '52998224725', name: 'Maria', address: { street: 'Rua A', number: '1', district: 'Centro', city_code: '3304557', cep: '20010000' } },
  values: { service_amount: 1000, approximate_taxes: { federal_rate: 13.45, state_rate: 0, municipal_rate: 2 }, iss: { retained: 'nao_retido', rate: 2 }, federal: { pis_cofins: { cst: '01', pis_rate: 0.65, cofins_rate: 3, withheld: 2 }, withholdings: { irrf: 15 } } },
  reform: { operation_code: '100301', cst: '000', class_code: '000001' },
};

interface Node {
  description?: string;
  examples?: unknown[];
  properties?: Record<string, Node>;
  anyOf?: Node[];
}

/** Every leaf field (a property that is not an object) of the schema, with its path. */
function leaves(node: Node, path: string, out: Array<[string, Node]>): Array<[string, Node]> {
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    if (child.properties) leaves(child, `${path}${name}.`, out);
    else out.push([`${path}${name}`, child]);
  }
  return out;
}

describe('NfseRequestSchema (for the HTTP route)', () => {
  it('accepts a full request, refuses unknown fields and values', () => {
    expect(Value.Check(NfseRequestSchema, request)).toBe(true);
    expect(Value.Check(NfseRequestSchema, { ...request, tpEmit: 2 })).toBe(false);
    expect(Value.Check(NfseRequestSchema, { ...request, values: { ...request.values, iss: { retained: 'prestador' } } })).toBe(false);
    expect(Value.Check(NfseRequestSchema, { ...request, values: { ...request.values, vLiq: 900 } })).toBe(false); // computed, never asked for
  });

  it('every field has a description and an example', () => {
    const fields = leaves(NfseRequestSchema as unknown as Node, '', []);
    expect(fields.length).toBeGreaterThan(40);
    const missing = fields.filter(([, n]) => !n.description || !(n.examples && n.examples.length > 0)).map(([p]) => p);
    expect(missing).toEqual([]);
  });
});
