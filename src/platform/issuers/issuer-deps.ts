import type { Clock } from '../../kernel/clock.js';
import type { GatewayEnv } from '../../config.js';
import type { ParsedCertificate } from '../../fiscal/certificate/pfx.js';
import type { SecretBox } from '../../infra/security/secret-box.js';
import type { Db } from '../../infra/storage/db.js';
import type { RegisteredIssuer } from '../../kernel/issuer.js';

/**
 * Called after a secret is stored: the sandbox registers the certificate and CSC with the SEFAZ
 * simulator, as a real taxpayer's are known to the state from its portal; and after the issuer is
 * saved, its name and address, as the CNPJ register holds them for the real authorities.
 */
export interface IssuerSecretHooks {
  onCertificateStored?(issuer: RegisteredIssuer, certificatePem: string, certificate: ParsedCertificate): Promise<void> | void;
  onCscStored?(issuer: RegisteredIssuer, idCsc: string, csc: string): Promise<void> | void;
  /** After the issuer is created or changed: the sandbox gives the simulated Sefin its name and address (the CNPJ register's part). */
  onIssuerSaved?(issuer: RegisteredIssuer): Promise<void> | void;
}

export interface IssuerServiceDeps {
  db: Db;
  secrets: SecretBox;
  clock: Clock;
  env: GatewayEnv;
  hooks?: IssuerSecretHooks | undefined;
}

/** AAD of each secret: binds the ciphertext to its issuer and purpose (no swapping between rows). */
export const secretAad = {
  certificateKey: (issuerId: string) => `issuer:${issuerId}:certificate_key`,
  certificate: (issuerId: string) => `issuer:${issuerId}:certificate`,
  csc: (issuerId: string) => `issuer:${issuerId}:csc`,
};

/** AAD of a technical responsible's CSRT: bound to its owner (the account or the issuer). */
export const csrtAad = (ownerId: string) => `technical_responsible:${ownerId}:csrt`;
