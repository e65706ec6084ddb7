// Substitution (docs/fiscal/nfse-national.md#events): a DPS with subst/chSubstda replaces an authorized NFS-e of the same
// provider; Sefin registers event 105102 on the original itself and returns the substitute NFS-e.
// Rules checked (Anexo I): E0042 key invalid or not this DPS's provider/municipality, E0044 unknown,
// E0046 already canceled (by cancellation or substitution), E0060/E0061 what the substitute may not change
// (dps-service-rules.ts). Municipal parameters (E0050 deadline,
// E0056 taker required) and the event-dependent ones (E0068-E0076) have nothing to hold here.
import type { Queryable } from '../../infra/storage/db.js';
import type { SigningKey } from '../../fiscal/xml/signature/sign.js';
import { parseNfseKey } from '../../fiscal/xml/nfse/dps-id.js';
import type { DpsFacts } from './dps-facts.js';
import { actorsOf, COLUMNS, type NfseStore, type NfseRow } from './nfse-store.js';
import { checkSubstitutionChanges } from './dps-service-rules.js';
import { NfseRefusal } from './nfse-wire.js';
import { substitutionRequest, writeEvento } from './write-evento.js';

export async function lockReplaced(store: NfseStore, tx: Queryable, f: DpsFacts & { subst: NonNullable<DpsFacts['subst']> }): Promise<NfseRow> {
  const key = f.subst.chSubstda;
  const parts = parseNfseKey(key);
  const taxId = f.prest.CNPJ ?? f.prest.CPF ?? '';
  if (!parts) throw new NfseRefusal('E0042', `${key}: check digit or layout`);
  if (parts.cMun !== f.cLocEmi || parts.inscriptionType !== (f.prest.CNPJ ? 2 : 1) || parts.taxId !== taxId) {
    throw new NfseRefusal('E0042', `${key} is not of provider ${taxId} in ${f.cLocEmi}`);
  }
  const r = await tx.query<NfseRow>(`SELECT ${COLUMNS} FROM sim_nfse WHERE tenant = $2 AND access_key = $1 FOR UPDATE`, [key, store.tenant]);
  const original = r.rows[0];
  if (!original) throw new NfseRefusal('E0044', key);
  if (original.status !== 'authorized') throw new NfseRefusal('E0046', `${key} is ${original.status}`);
  checkSubstitutionChanges(original.nfse_xml, f);
  return original;
}

/** Registers 105102 on `original` (nSeqEvento 1) and closes it as substituted, in the caller's transaction. */
export async function registerSubstitution(
  store: NfseStore,
  tx: Queryable,
  original: NfseRow,
  substitute: { key: string; facts: DpsFacts & { subst: NonNullable<DpsFacts['subst']> }; at: Date },
  signingKey: SigningKey,
): Promise<void> {
  const { facts, at } = substitute;
  const request = substitutionRequest({
    chNFSe: original.access_key,
    chSubstituta: substitute.key,
    tpAmb: facts.tpAmb,
    author: { CNPJ: facts.prest.CNPJ, CPF: facts.prest.CPF },
    cMotivo: facts.subst.cMotivo,
    xMotivo: facts.subst.xMotivo,
    at,
  });
  const nDFSe = await store.nextNsu(tx);
  const xml = writeEvento({ preId: request.preId, nSeq: 1, nDFSe, processedAt: at, pedRegText: request.xml }, signingKey);
  if (!(await store.close(tx, original.access_key, 'substituted'))) throw new NfseRefusal('E0046', `${original.access_key} was closed meanwhile`);
  await store.insertEvent(tx, { accessKey: original.access_key, tpEvento: '105102', nSeq: 1, xml, registeredAt: at });
  await store.distribute(tx, nDFSe, { accessKey: original.access_key, kind: 'EVENTO', tpEvento: '105102', parties: actorsOf(original), xml, at });
}
