import { describe, expect, it } from 'vitest';
import { payloadCheck } from './job-payload.js';
import { JobPayloadError } from './queue.js';

describe('a job payload is checked against its shape', () => {
  const check = payloadCheck({ noteId: 'string', contingency: 'boolean?', trigger: ['automatic', 'replay'] });

  it('takes a payload that fits, optional fields left out', () => {
    expect(check({ noteId: 'nfce_1', trigger: 'replay' })).toEqual({ noteId: 'nfce_1', trigger: 'replay' });
    expect(check({ noteId: 'nfce_1', contingency: true, trigger: 'automatic' }).contingency).toBe(true);
  });

  it('refuses what does not fit, naming the field', () => {
    for (const [raw, why] of [
      [null, 'the job payload is not an object'],
      [['x'], 'the job payload is not an object'],
      [{ trigger: 'replay' }, "the job payload's noteId must be a non-empty string (missing)"],
      [{ noteId: '', trigger: 'replay' }, "the job payload's noteId must be a non-empty string"],
      [{ noteId: 'n', contingency: 1, trigger: 'replay' }, "the job payload's contingency must be a boolean"],
      [{ noteId: 'n', trigger: 'manual' }, "the job payload's trigger must be one of automatic, replay"],
    ] as const) {
      expect(() => check(raw), JSON.stringify(raw)).toThrow(new JobPayloadError(why));
    }
  });
});
