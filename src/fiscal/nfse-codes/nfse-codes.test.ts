import { describe, expect, it } from 'vitest';
import { allNfseCodes, nfseCode, parseCsv } from './nfse-codes.js';

describe('NFS-e official code list', () => {
  it('holds the 503 distinct codes of Anexo I and II with their messages and paths', () => {
    expect(allNfseCodes()).toHaveLength(503);
    expect(nfseCode('E0714')).toMatchObject({ message: 'Arquivo enviado com erro na assinatura.', xmlPath: 'DPS/Signature', annex: 'I' });
    expect(nfseCode('e1235')?.message).toBe('Falha no esquema XML do DF-e.');
    expect(nfseCode('E0014')?.xmlPath).toBe('DPS/infDPS/serie');
    expect(nfseCode('E9999x')).toBeUndefined();
  });

  it('parses quoted fields with commas, quotes and newlines', () => {
    expect(parseCsv('a,"b, ""c""\nd",e\r\n1,2,3\n')).toEqual([
      ['a', 'b, "c"\nd', 'e'],
      ['1', '2', '3'],
    ]);
  });
});
