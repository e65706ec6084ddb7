import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emitSettled, emittingApp, readyIssuer, sale, waitForSettled } from './support/nfce-flow.js';
import { invoice } from './support/nfe-flow.js';

// A sale retried without an Idempotency-Key issued a second fiscal document for the
// same external_ref, silently. A live note (processing, contingency, authorized) of the issuer and
// model holds its external_ref; a second sale with it is 409 duplicate_external_ref naming the note,
// unless it says allow_duplicate_external_ref: true.

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
});
afterAll(async () => t.runtime.close());

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { ...auth, ...headers }, payload });
const notesOf = async (url: string, ref: string) =>
  (await t.app.inject({ method: 'GET', url: `${url}?external_ref=${encodeURIComponent(ref)}`, headers: auth })).json().data as Array<{ id: string }>;

describe('one live note per external_ref, issuer and model', () => {
  it('a retry without a key is refused naming the first note; with allow_duplicate_external_ref a second note is issued', async () => {
    const body = sale(issuerId);
    const first = await post('/v1/nfce', body);
    expect(first.statusCode, first.body).toBe(202);
    const retry = await post('/v1/nfce', body);
    expect(retry.statusCode, retry.body).toBe(409);
    expect(retry.json()).toMatchObject({
      error: 'duplicate_external_ref',
      message: expect.stringContaining(first.json().id),
      details: [{ field: 'external_ref', note_id: first.json().id }],
    });
    expect(await notesOf('/v1/nfce', body.external_ref)).toHaveLength(1);

    const allowed = await post('/v1/nfce', { ...body, allow_duplicate_external_ref: true });
    expect(allowed.statusCode, allowed.body).toBe(202);
    expect(allowed.json().id).not.toBe(first.json().id);
    // The number the refused retry did not take went to the allowed sale: no gap.
    expect(allowed.json().number).toBe(first.json().number + 1);
    // The first note still holds the reference: a note issued with the flag does not take it.
    expect((await post('/v1/nfce', body)).json().details[0].note_id).toBe(first.json().id);
    await waitForSettled(t, auth, allowed.json().id);
  });

  it('10 concurrent sales with one external_ref and no key: one note, nine refusals naming it', async () => {
    const body = sale(issuerId);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post('/v1/nfce', body)));
    const created = answers.filter((a) => a.statusCode === 202);
    expect(created, answers.map((a) => a.body).join('\n')).toHaveLength(1);
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(r.json().details[0].note_id).toBe(created[0]!.json().id);
    expect(await notesOf('/v1/nfce', body.external_ref)).toHaveLength(1);
  });

  it('a rejected sale lets go of its external_ref: corrected, it is sent again with the same one', async () => {
    const body = sale(issuerId);
    const { note } = await emitSettled(t, auth, body, { 'x-sandbox-scenario': 'reject:778' });
    expect(note.status).toBe('rejected');
    const again = await post('/v1/nfce', body);
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json().id).not.toBe(note.id);
  });

  it('a canceled note lets go of it too', async () => {
    const body = sale(issuerId);
    const { note } = await emitSettled(t, auth, body);
    expect(note.status).toBe('authorized');
    const canceled = await post(`/v1/nfce/${note.id}/cancel`, { reason: 'Cliente desistiu da compra' });
    expect(canceled.statusCode, canceled.body).toBe(200);
    await waitForSettled(t, auth, note.id);
    const again = await post('/v1/nfce', body);
    expect(again.statusCode, again.body).toBe(202);
  });

  it('the same key replays the first answer, a new key with the same external_ref is refused', async () => {
    const body = sale(issuerId);
    const first = await post('/v1/nfce', body, { 'idempotency-key': `dup-${body.external_ref}` });
    expect(first.statusCode).toBe(202);
    const replay = await post('/v1/nfce', body, { 'idempotency-key': `dup-${body.external_ref}` });
    expect(replay.json().id).toBe(first.json().id);
    // The key's answer lost in a crash: the note stored under the key answers, not the refusal.
    await t.runtime.ctx.db.query('DELETE FROM idempotency_keys WHERE key = $1', [`dup-${body.external_ref}`]);
    const lost = await post('/v1/nfce', body, { 'idempotency-key': `dup-${body.external_ref}` });
    expect(lost.json().id, lost.body).toBe(first.json().id);
    const other = await post('/v1/nfce', body, { 'idempotency-key': `dup2-${body.external_ref}` });
    expect(other.statusCode).toBe(409);
    expect(other.json().details[0].note_id).toBe(first.json().id);
  });

  it('the reference is per model and per issuer: an NF-e, or another account, may use it', async () => {
    const ref = `shared-${Date.now()}`;
    expect((await post('/v1/nfce', sale(issuerId, { external_ref: ref }))).statusCode).toBe(202);
    const nfe = await post('/v1/nfe', invoice(issuerId, { external_ref: ref }));
    expect(nfe.statusCode, nfe.body).toBe(202);
    expect((await post('/v1/nfe', invoice(issuerId, { external_ref: ref }))).json()).toMatchObject({
      error: 'duplicate_external_ref', details: [{ note_id: nfe.json().id }],
    });
    const other = await t.newAccount('Other account');
    const otherIssuer = await readyIssuer(t, other.auth);
    const theirs = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: other.auth, payload: sale(otherIssuer, { external_ref: ref }) });
    expect(theirs.statusCode, theirs.body).toBe(202);
  });
});
