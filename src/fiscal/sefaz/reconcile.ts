import type { AuthorizationOutcome, ConsultOutcome, Protocol } from './outcomes.js';
import type { CallTarget, SefazClient } from './sefaz-client.js';

export type ReconciledStatus =
  | 'authorized'
  | 'denied'
  | 'rejected'
  | 'canceled'
  /** Nothing reached the authority (connect failure, service stopped): safe to try again later. */
  | 'not-sent'
  /** The authority may hold the note and we could not learn its fate: consult later, never resend. */
  | 'in-doubt'
  /** The lot was received for asynchronous processing: poll NFeRetAutorizacao4 with `nRec`. */
  | 'queued';

export interface ReconcileStep {
  call: 'authorize' | 'consult';
  kind: string;
  cStat: number | null;
  elapsedMs: number;
}

export interface ReconciledAuthorization {
  status: ReconciledStatus;
  cStat: number | null;
  xMotivo: string | null;
  late: boolean;
  /** The protocol with its exact bytes when the authority gave one. */
  protocol: Protocol | null;
  /** The receipt of a lot received for asynchronous processing (status `queued`). */
  nRec?: string;
  /** Which call produced the final answer. */
  via: 'authorization' | 'consultation';
  steps: ReconcileStep[];
}

function step(call: ReconcileStep['call'], o: AuthorizationOutcome | ConsultOutcome): ReconcileStep {
  return { call, kind: o.kind, cStat: 'cStat' in o ? o.cStat : null, elapsedMs: o.timing.elapsedMs };
}

function fromAuthorization(o: AuthorizationOutcome, steps: ReconcileStep[]): ReconciledAuthorization | null {
  const base = { via: 'authorization' as const, steps, late: false };
  switch (o.kind) {
    case 'authorized':
      return { ...base, status: 'authorized', cStat: o.cStat, xMotivo: o.xMotivo, late: o.late, protocol: o.protocol };
    case 'denied':
      return { ...base, status: 'denied', cStat: o.cStat, xMotivo: o.xMotivo, protocol: o.protocol };
    case 'rejected':
      return { ...base, status: 'rejected', cStat: o.cStat, xMotivo: o.xMotivo, protocol: o.protocol };
    case 'timeout':
    case 'unavailable':
    case 'unknown':
      if (o.inDoubt) return null;
      return { ...base, status: 'not-sent', cStat: 'cStat' in o ? o.cStat : null, xMotivo: null, protocol: null };
    default:
      // duplicate (204/539) and in-process: the authority's record decides, so consult.
      return null;
  }
}

/**
 * Authorizes a note so that it can never be authorized twice: any answer that leaves its fate open
 * (timeout after sending, lost answer, 5xx, duplicate 204, lot in process) is followed by a
 * consultation by key (NFeConsultaProtocolo4) - the note is re-sent only when the authority says it
 * does not know the key (217), or knows only its EPEC (124), and then at most `maxResends` times.
 */
export async function authorizeOrReconcile(
  client: SefazClient,
  target: CallTarget & { signedNFeXml: string; idLote: string | number; indSinc?: 0 | 1; accessKey: string; maxResends?: number },
): Promise<ReconciledAuthorization> {
  const steps: ReconcileStep[] = [];
  let resends = target.maxResends ?? 1;
  for (;;) {
    const sent = await client.authorize(target);
    steps.push(step('authorize', sent));
    const direct = fromAuthorization(sent, steps);
    if (direct) return direct;
    if (sent.kind === 'in-process' && sent.nRec) {
      // MOC 4.1 (103): the lot is in the authority's hands; its result is asked for by receipt, not sent again.
      return { status: 'queued', cStat: sent.cStat, xMotivo: sent.xMotivo, late: false, protocol: null, via: 'authorization', steps, nRec: sent.nRec };
    }
    if (sent.kind === 'duplicate' && sent.cStat === 539) {
      // Same number under another key: this key will never be authorized; the number is taken.
      return { status: 'rejected', cStat: 539, xMotivo: sent.xMotivo, late: false, protocol: null, via: 'authorization', steps };
    }
    const known = await client.consult({ ...target, headers: withoutScenario(target.headers) });
    steps.push(step('consult', known));
    const base = { via: 'consultation' as const, steps, late: false };
    switch (known.kind) {
      case 'authorized':
        return { ...base, status: 'authorized', cStat: known.cStat, xMotivo: known.xMotivo, late: known.late, protocol: known.protocol };
      case 'canceled':
        return { ...base, status: 'canceled', cStat: known.cStat, xMotivo: known.xMotivo, protocol: known.protocol };
      case 'denied':
        return { ...base, status: 'denied', cStat: known.cStat, xMotivo: known.xMotivo, protocol: known.protocol };
      // 124 (NT 2014.001 5.6): only the EPEC of the key is on record, the NF-e itself was not received.
      case 'epec':
      case 'not-found':
        if (resends-- > 0) continue;
        return { ...base, status: 'not-sent', cStat: known.cStat, xMotivo: known.xMotivo, protocol: null };
      default:
        return { ...base, status: 'in-doubt', cStat: 'cStat' in known ? known.cStat : null, xMotivo: null, protocol: null };
    }
  }
}

// A fault scenario addressed to the authorization must not also hit the consultation that repairs it.
function withoutScenario(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return undefined;
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'x-sandbox-scenario'));
}

type Unsettled<S> = { status: S; cStat: number | null; xMotivo: string | null };

/**
 * The answer to a receipt (NFeRetAutorizacao4) for a lot of one note: its settlement, `wait` while
 * the lot is in process (105) or the call failed, `lost` when the authority no longer knows the lot
 * (106, or no protocol for the note): then only a consultation by key can tell.
 */
export function fromReceipt(o: AuthorizationOutcome): ReconciledAuthorization | Unsettled<'wait'> | Unsettled<'lost'> {
  if (o.kind === 'in-process') return { status: 'wait', cStat: o.cStat, xMotivo: o.xMotivo };
  if (o.kind === 'rejected' && !o.protocol) return { status: 'lost', cStat: o.cStat, xMotivo: o.xMotivo };
  if (o.kind === 'duplicate') return { status: 'lost', cStat: o.cStat, xMotivo: o.xMotivo };
  const settled = o.kind === 'authorized' || o.kind === 'denied' || o.kind === 'rejected' ? fromAuthorization(o, [step('authorize', o)]) : null;
  return settled ?? { status: 'wait', cStat: 'cStat' in o ? o.cStat : null, xMotivo: 'xMotivo' in o ? o.xMotivo : o.kind };
}
