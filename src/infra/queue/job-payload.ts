import { JobPayloadError, type Job } from './queue.js';
import type { JobHandler } from './runner.js';

// A job's payload is JSON the database hands back: whatever wrote it (this version of the code, an
// older one, a person with SQL), the handler gets the payload it declares or does not run. A payload
// that does not fit fails its job at once (JobPayloadError): retrying would not change it.

/** A field's type; a list of strings is a choice among them (`['automatic', 'replay']`). */
type FieldKind = 'string' | 'string?' | 'boolean' | 'boolean?' | 'number' | 'number?' | readonly string[];
export type PayloadShape = Readonly<Record<string, FieldKind>>;

type Base<K> = K extends readonly (infer U)[] ? U : K extends 'string' | 'string?' ? string : K extends 'boolean' | 'boolean?' ? boolean : number;
type Required<S extends PayloadShape> = { [F in keyof S as S[F] extends `${string}?` ? never : F]: Base<S[F]> };
type Optional<S extends PayloadShape> = { [F in keyof S as S[F] extends `${string}?` ? F : never]?: Base<S[F]> };
export type PayloadOf<S extends PayloadShape> = Required<S> & Optional<S>;

/** The check of a payload against its shape: the typed payload, or JobPayloadError naming the field. */
export function payloadCheck<const S extends PayloadShape>(shape: S): (raw: unknown) => PayloadOf<S> {
  return (raw) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new JobPayloadError('the job payload is not an object');
    const o = raw as Record<string, unknown>;
    for (const [field, kind] of Object.entries(shape)) {
      if (typeof kind !== 'string') {
        if (!kind.includes(o[field] as string)) throw new JobPayloadError(`the job payload's ${field} must be one of ${kind.join(', ')}`);
        continue;
      }
      const optional = kind.endsWith('?');
      const type = optional ? kind.slice(0, -1) : kind;
      const v = o[field];
      if (v === undefined && optional) continue;
      if (typeof v !== type || (type === 'string' && v === '') || (type === 'number' && !Number.isFinite(v))) {
        throw new JobPayloadError(`the job payload's ${field} must be a${type === 'string' ? ' non-empty' : ''} ${type}${v === undefined ? ' (missing)' : ''}`);
      }
    }
    return o as PayloadOf<S>;
  };
}

/** A handler whose job's payload is checked first: `run` receives a Job<P>, no cast anywhere. */
export function typedHandler<const S extends PayloadShape, R extends Awaited<ReturnType<JobHandler>>>(
  shape: S,
  run: (job: Job<PayloadOf<S>>, ctx: { workerId: string }) => Promise<R>,
): JobHandler {
  const check = payloadCheck(shape);
  return (job, ctx) => run({ ...job, payload: check(job.payload) }, ctx);
}
