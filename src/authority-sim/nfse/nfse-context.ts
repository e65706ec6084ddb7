// What one NFS-e request's handler may use, and what it answers.
import type { SigningKey } from '../../fiscal/xml/signature/sign.js';
import type { NfseStore } from './nfse-store.js';
import type { TaxpayerRecord } from './taxpayer-register.js';

export interface NfseSimContext {
  store: NfseStore;
  /** The simulator's key: it signs NFS-e and events as Sefin does. */
  signingKey: SigningKey;
  now: () => Date;
  /** The simulator's counters (sim-context.ts SimCounters), the NFS-e ones. */
  counters: { nfseAuthorizations: number; nfseRejections: number; nfseEvents: number };
  /** The request's tenant's taxpayer register (taxpayer-register.ts): the emit of the NFS-e. */
  taxpayer?: (taxId: string) => TaxpayerRecord | undefined;
}

/** Who is calling: the TLS client certificate (docs/fiscal/nfse-national.md#hosts-and-transport: the certificate decides what one may read). */
export interface NfseCaller {
  /** The subject's name (ICP-Brasil CN without its ":CNPJ" tail): the NFS-e's emit/xNome. */
  name: string;
  /** CNPJ or CPF the certificate names; null for the sandbox's test certificates. */
  taxId: string | null;
}

export interface JsonReply {
  status: number;
  /** Absent: no body (HEAD, 429). */
  body?: unknown;
  headers?: Record<string, string>;
}
