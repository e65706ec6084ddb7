// What the signature check's worker thread receives and answers (signature-check-worker.ts, signature-check-pool.ts).

/** The general verifier's verdict in a form a worker thread can send back (signature-check-worker.ts). */
export type PlainSignatureCheck =
  | { ok: true; certificateBase64: string; digestValue: string }
  | { ok: false; cStat: 297 | 298 | 404; reason: string };

export interface SignatureCheckJob {
  xml: string;
  signedElement: string;
}
export type SignatureCheckReply = { verdict: PlainSignatureCheck } | { failed: string };
