import type { Ports } from '../../../platform/ports/ports.js';
import type { NoteRow } from '../../../platform/storage/repositories/note-repository.js';

/**
 * What the use cases shared by the two families of the 4.00 layout (NF-e model 55, NFC-e model 65)
 * need to know of the family they serve: its model, names, jobs, API record and cancellation window.
 * Each family folder (documents/nfce, documents/nfe) holds one; this folder imports neither.
 */
export interface NoteFamily {
  model: 55 | 65;
  /** The API object and the webhook event prefix (`nfe.authorized`, `nfce.canceled`). */
  object: 'nfe' | 'nfce';
  /** How people write it: NF-e, NFC-e. */
  label: 'NF-e' | 'NFC-e';
  jobs: { authorize: string; cancel: string };
  /** Whether the authority of `uf` processes a one-note lot synchronously (indSinc=1) for this model. */
  synchronous(uf: string): boolean;
  /** The record the API answers and the webhooks carry. */
  present(row: NoteRow, baseUrl: string): unknown;
  /** Cancellation (110111) deadline for a note authorized at `authorizedAt` in `uf`, and what to do past it. */
  cancellation: {
    deadline(uf: string, authorizedAt: Date): Date;
    windowText(uf: string): string;
    pastIt: string;
  };
}

/** The authorization and cancellation jobs also talk to the authority. */
export type AuthorityDeps = Pick<Ports, 'db' | 'clock' | 'config' | 'secrets' | 'authority' | 'wakeWorker'>;
