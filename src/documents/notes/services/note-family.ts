import type { Note } from '../domain/note.js';
import type { Ports } from '../../../platform/ports/ports.js';
import type { Queryable } from '../../../infra/storage/db.js';

/**
 * What the use cases shared by the note families (NF-e model 55, NFC-e model 65, and the NFS-e for
 * emission, reading and settling) need to know of the family they serve: its model, names, jobs, API
 * record and cancellation window. Each family folder holds one; this folder imports none of them.
 */
export interface NoteFamily {
  /** 55, 65; 99 for the NFS-e, which has no model: its DPS series are numbered under it (migration 17). */
  model: 55 | 65 | 99;
  /** The API object and the webhook event prefix (`nfe.authorized`, `nfce.canceled`, `nfse.rejected`). */
  object: 'nfe' | 'nfce' | 'nfse';
  /** How people write it: NF-e, NFC-e, NFS-e. */
  label: 'NF-e' | 'NFC-e' | 'NFS-e';
  /** `contingencyRejected`: the job that voids the number of a contingency note the authority refused (NFC-e). */
  jobs: { authorize: string; cancel: string; contingencyRejected?: string };
  /** Whether the authority of `uf` processes a one-note lot synchronously (indSinc=1) for this model. */
  synchronous(uf: string): boolean;
  /** The record the API answers and the webhooks carry. */
  present(row: Note, baseUrl: string): unknown;
  /** Cancellation (110111) deadline for a note authorized at `authorizedAt` in `uf`, and what to do past it. */
  cancellation: {
    deadline(uf: string, authorizedAt: Date): Date;
    windowText(uf: string): string;
    pastIt: string;
    /** Why the authority would refuse this note's cancellation for the events it carries (NF-e: 826), or null. */
    blockedBy?(db: Queryable, noteId: string): Promise<string | null>;
  };
}

/** The authorization and cancellation jobs also talk to the authority. */
export type AuthorityDeps = Pick<Ports, 'db' | 'clock' | 'config' | 'secrets' | 'authority' | 'wakeWorker'>;
