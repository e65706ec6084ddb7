// The sandbox's simulated authority runs in the gateway's process
// and verified each note's signature on the event loop. A signed 750-item offline NFC-e (near the largest the authority's 500 KB
// message limit lets through, MOC B01) that misses
// the text fast path (here: a SignedInfo written with end tags instead of empty elements, canonically
// the same and valid) went to DOM + xml-crypto and stalled the whole process 2.8-4.2 s, holding every
// other tenant's requests. Now the general check runs on a bounded worker pool, and the simulator's
// reading of the note's facts no longer rescans the whole text for each of its items.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { readyIssuer } from './support/nfce-flow.js';
import { signedOfflineNfe } from './support/offline-nfe.js';
import { watchLoopStall } from './support/loop-stall.js';
import { eventually } from './support/webhook-receiver.js';

let t: TestApp;
let auth: { authorization: string };
let accountId: string;
let issuerId: string;

beforeAll(async () => {
  t = await createTestApp({ role: 'all', env: { BODY_LIMIT_BYTES: String(8 * 1_048_576) } });
  ({ auth, accountId } = await t.newAccount());
  issuerId = await readyIssuer(t, auth);
});
afterAll(async () => t.runtime.close());


/** A point of sale's own signed offline NFC-e with `items` items, in a series of its own. */
const signedNfe = (items: number) => signedOfflineNfe(t, { accountId, issuerId }, { serie: 300 + randomInt(0, 500), number: randomInt(1, 900_000), items });

/** The same signature with SignedInfo's empty elements written with end tags: canonically identical, still valid. */
const withEndTags = (xml: string) =>
  xml.replace(/<SignedInfo>[\s\S]*?<\/SignedInfo>/, (si) => si.replace(/<(\w+)( [^>]*)\/>/g, '<$1$2></$1>'));

const posted = async (xml: string) => {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nfce/offline', headers: auth, payload: { xml } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};

/** GET /v1/nfce/:id until the background job has transmitted it (60 s: a last guard for a loaded machine). */
async function transmitted(id: string): Promise<{ status?: string }> {
  let note: { status?: string } = {};
  await eventually(async () => {
    note = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}`, headers: auth })).json();
    return note.status !== 'contingency' ? note : null;
  }, 60_000, () => `note ${id} to leave contingency: ${JSON.stringify(note)}`);
  return note;
}

describe('the sandbox authority verifies a large signature off the event loop', () => {
  it('authorizes a 750-item offline NFC-e that misses the fast path, and the process never holds its event loop 1 s meanwhile', async () => {
    // One small note first, so the process's one-off costs (the simulator compiling its XSDs: ~0.3 s once
    // per process) are not counted as this document's.
    await transmitted(await posted((await signedNfe(2)).xml));
    const nfe = await signedNfe(750);
    const xml = withEndTags(nfe.xml);
    expect(xml).not.toBe(nfe.xml);
    // Timed on purpose: the stall is the bug. The event loop's longest delay while the note is received and
    // authorized was 2.8-4.2 s before (xml-crypto on the loop, 1.9-4.7 s; the slicer reading 990 det, 1.4 s).
    // What is bounded is the main thread's own CPU time in its longest stall (test/support/loop-stall.ts): a
    // machine loaded by other work stretches the wall time (1.86 s seen at load 16, with nothing on the
    // loop) but not that. 1,000 ms of CPU leaves room for GC and the steps that stay on the loop, far below
    // the bug's 3.3 s or more.
    const stop = watchLoopStall();
    const note = await transmitted(await posted(xml));
    const stall = stop();
    console.log(`750-item NFC-e off the fast path: status ${note.status}, longest event-loop stall ${stall.wallMs.toFixed(0)} ms wall, ${stall.cpuMs.toFixed(0)} ms of the main thread's CPU`);
    expect(note.status).toBe('authorized');
    expect(stall.cpuMs).toBeLessThan(1_000);
  }, 120_000);
});
