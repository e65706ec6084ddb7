// A point of sale's own signed offline NFC-e (tpEmis 9), as it prints and later uploads it to
// POST /v1/nfce/offline: built and signed with the example certificate, 10 minutes ago, in contingency
// 5 minutes before that. Used by the tests of the offline XML's reading and of the simulator's cost.
import { buildPreparedNfce } from '../../src/documents/nfce/domain/build-nfce.js';
import type { Sale } from '../../src/documents/nfce/domain/sale.js';
import { NFCE_EMITTER } from '../../src/documents/nfce/services/issue-nfce.js';
import { parsePfx } from '../../src/fiscal/certificate/pfx.js';
import { generateCnf } from '../../src/fiscal/layout/cnf.js';
import { findIssuerForEmission } from '../../src/infra/storage/repositories/issuer-repository.js';
import type { TestApp } from './app.js';
import { sale, TEST_CSC } from './nfce-flow.js';
import { certFile } from '../issuers-harness.js';

const signingKey = parsePfx(certFile('novo_cert_cnpj_06157250000116_senha_minhasenha.pfx'), 'minhasenha');
const spTime = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000 - 3 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '-03:00');

/** Number `number` of series `serie` of the issuer; `items` items of R$ 1.00 each (default: the sample sale's one). */
export async function signedOfflineNfe(
  t: TestApp,
  who: { accountId: string; issuerId: string },
  o: { serie: number; number: number; items?: number },
): Promise<{ xml: string; key: string }> {
  const issuer = (await findIssuerForEmission(t.db, who.accountId, who.issuerId))!;
  const base = sale(who.issuerId);
  const request = o.items === undefined ? base : {
    ...base,
    items: Array.from({ length: o.items }, (_, i) => ({ ...base.items[0]!, description: `Item ${i + 1}`, quantity: 1, unit_price: 1 })),
    payment: { method: 'dinheiro', amount: o.items },
  };
  const prepared = NFCE_EMITTER.prepare(request as Sale, issuer);
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.errors));
  const at = new Date(Date.now() - 10 * 60_000);
  const built = buildPreparedNfce(prepared.prepared, {
    serie: o.serie, nNF: o.number, emittedAt: new Date(spTime(at)), signingKey, csc: { id: TEST_CSC.id_csc, token: TEST_CSC.csc },
    cNF: generateCnf(o.number), tpEmis: 9, contingency: { at: new Date(at.getTime() - 5 * 60_000), reason: 'Sem conexao com a internet no caixa 3' },
  });
  return { xml: built.xml, key: built.accessKey };
}
