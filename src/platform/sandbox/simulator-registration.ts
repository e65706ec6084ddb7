import { X509Certificate } from 'node:crypto';
import type { SimulatorLink } from '../../authority-sim/sim-link.js';
import type { SecretBox } from '../../infra/security/secret-box.js';
import type { Db } from '../../infra/storage/db.js';
import type { TaxpayerRecord } from '../../authority-sim/nfse/taxpayer-register.js';
import type { RegisteredIssuer } from '../../kernel/issuer.js';
import { secretAad, type IssuerSecretHooks } from '../issuers/issuer-deps.js';

/**
 * In the sandbox the simulated authority must know each issuer's certificate (its TLS handshake
 * refuses unknown clients, as SEFAZ refuses certificates outside ICP-Brasil) and CSC (to check QR
 * codes), as a real state knows them from its taxpayer portal.
 */
export function sandboxIssuerHooks(sim: SimulatorLink): IssuerSecretHooks {
  return {
    onCertificateStored: (_issuer, pem) => sim.registerClientCertificate(pem),
    // The account's own CSC (its tenant's): another account registering a CSC for the same test CNPJ never replaces it.
    onCscStored: (issuer, idCsc, csc) => sim.registerCsc(issuer.cnpj, issuer.ambiente === 'producao' ? 1 : 2, idCsc, csc, { tenant: issuer.account_id }),
    // Real Sefin writes the NFS-e's emit (name, address) from the CNPJ register; the simulator's register is this.
    onIssuerSaved: (issuer) => sim.registerTaxpayer(issuer.cnpj, taxpayerOf(issuer), { tenant: issuer.account_id }),
  };
}

/** What the CNPJ register would say of the issuer: its legal and trade names and address. */
export function taxpayerOf(issuer: Pick<RegisteredIssuer, 'razao_social' | 'nome_fantasia' | 'endereco'>): TaxpayerRecord {
  const e = issuer.endereco;
  return {
    name: issuer.razao_social,
    tradeName: issuer.nome_fantasia ?? undefined,
    address: e
      ? { street: e.logradouro, number: e.numero, complement: e.complemento ?? undefined, district: e.bairro, municipalityCode: e.codigo_municipio, postalCode: e.cep }
      : undefined,
  };
}

/**
 * On start, re-registers the issuers' names and addresses, the certificates and CSCs stored before: the in-process simulator keeps
 * them in memory only, so no clear CSC lands in the shared database; a standalone one (SIM_URL) may
 * have been replaced or reset since this gateway last ran.
 */
export async function registerStoredIssuersWithSimulator(db: Db, secrets: SecretBox, sim: SimulatorLink): Promise<void> {
  const issuers = await db.query<Pick<RegisteredIssuer, 'account_id' | 'cnpj' | 'razao_social' | 'nome_fantasia' | 'endereco'>>(
    'SELECT account_id, cnpj, razao_social, nome_fantasia, endereco FROM issuers WHERE archived_at IS NULL',
  );
  for (const row of issuers.rows) await sim.registerTaxpayer(row.cnpj, taxpayerOf(row), { tenant: row.account_id });
  const certs = await db.query<{ issuer_id: string; certificate_blob: string }>('SELECT issuer_id, certificate_blob FROM issuer_certificates');
  for (const row of certs.rows) {
    const der = await openOrNull(secrets, row.certificate_blob, secretAad.certificate(row.issuer_id));
    if (der) await sim.registerClientCertificate(new X509Certificate(der).toString());
  }
  const cscs = await db.query<{ issuer_id: string; account_id: string; cnpj: string; ambiente: string; id_csc: string; csc_blob: string }>(
    'SELECT c.issuer_id, i.account_id, i.cnpj, i.ambiente, c.id_csc, c.csc_blob FROM issuer_cscs c JOIN issuers i ON i.id = c.issuer_id',
  );
  for (const row of cscs.rows) {
    const csc = await openOrNull(secrets, row.csc_blob, secretAad.csc(row.issuer_id));
    if (csc) await sim.registerCsc(row.cnpj, row.ambiente === 'producao' ? 1 : 2, row.id_csc, csc.toString('utf8'), { tenant: row.account_id });
  }
}

// A blob sealed under another master key (e.g. after a key change) cannot serve the sandbox anymore.
async function openOrNull(secrets: SecretBox, blob: string, aad: string): Promise<Buffer | null> {
  try {
    return await secrets.decrypt(blob, aad);
  } catch {
    return null;
  }
}
