import { describe, expect, it } from 'vitest';
import { repairDoubleUtf8 } from './name-text.js';

describe('repairDoubleUtf8', () => {
  it('reads a name encoded to UTF-8 twice as its text', () => {
    expect(repairDoubleUtf8('C=BR, ST=SÃ£o Paulo, L=JundiaÃ\u00ad')).toBe('C=BR, ST=São Paulo, L=Jundiaí');
  });

  it('leaves text that is already right as it is: ASCII, Latin-1 names, characters past Latin-1', () => {
    for (const ok of ['C=BR, CN=ACME', 'ST=São Paulo, L=José', 'O=Conceição', 'CN=Ωmega Ã£', '']) expect(repairDoubleUtf8(ok)).toBe(ok);
  });
});
