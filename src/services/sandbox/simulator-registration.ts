import { X509Certificate } from 'node:crypto';
import type { AuthoritySimulator } from '../../authority-sim/authority-simulator.js';
import type { SecretBox } from '../../security/secret-box.js';
import type { Db } from '../../storage/db.js';
import { secretAad, type IssuerSecretHooks } from '../issuers/issuer-deps.js';

/**
 * In the sandbox the simulated authority must know each issuer's certificate (its TLS handshake
 * refuses unknown clients, as SEFAZ refuses certificates outside ICP-Brasil) and CSC (to check QR
 * codes), as a real state knows them from its taxpayer portal.
 */
export function sandboxIssuerHooks(sim: AuthoritySimulator): IssuerSecretHooks {
  return {
    onCertificateStored: (_issuer, pem) => sim.registerClientCertificate(pem),
    onCscStored: (issuer, idCsc, csc) => sim.registerCsc(issuer.cnpj, issuer.ambiente === 'producao' ? 1 : 2, idCsc, csc),
  };
}

/** On start, re-registers the certificates stored before (the simulator keeps them in memory only). */
export async function registerStoredIssuersWithSimulator(db: Db, secrets: SecretBox, sim: AuthoritySimulator): Promise<number> {
  const rows = await db.query<{ issuer_id: string; certificate_blob: string }>('SELECT issuer_id, certificate_blob FROM issuer_certificates');
  for (const row of rows.rows) {
    try {
      const der = await secrets.decrypt(row.certificate_blob, secretAad.certificate(row.issuer_id));
      sim.registerClientCertificate(new X509Certificate(der).toString());
    } catch {
      // A blob sealed under another master key (e.g. after a key change) cannot serve the sandbox anymore.
    }
  }
  return rows.rows.length;
}
