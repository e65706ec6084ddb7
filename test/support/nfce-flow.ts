import { randomInt } from 'node:crypto';
import { cnpjCheckDigits } from '../../src/kernel/tax-id.js';
import type { TestApp } from './app.js';
import { certFile, multipart, VALID_ISSUER } from '../issuers-harness.js';
import type { Clock } from '../../src/kernel/clock.js';
import { createTestApp } from './app.js';
import { eventually } from './webhook-receiver.js';

/** The issuer of the test certificate's company (SP, Simples Nacional, homologation). */
export const SP_ISSUER = VALID_ISSUER;

export const TEST_CSC = { id_csc: '000001', csc: 'A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6' };

const usedBranches = new Set<number>();
/**
 * A branch of the test certificate's company (same CNPJ root 06157250, so the certificate fits) that
 * no other test uses: the simulated authority keeps one numbering per CNPJ, like SEFAZ.
 */
export function freshBranchCnpj(): string {
  // Never the same branch twice in one process: a repeat among 9,998 draws (0.1 % for five of them) made an
  // account's second issuer a 409 issuer_exists and let two files share a numbering at the simulator.
  if (usedBranches.size >= 9_000) throw new Error('freshBranchCnpj: this process used 9,000 branches');
  let branch: number;
  do branch = randomInt(2, 10_000);
  while (usedBranches.has(branch));
  usedBranches.add(branch);
  const base = `06157250${String(branch).padStart(4, '0')}`;
  return base + cnpjCheckDigits(base);
}

/**
 * An issuer ready to emit: address, the e-CNPJ test certificate and a CSC. Offline contingency is off
 * unless asked (the sandbox's default is on): a test of the classic path must not see a sale switch
 * to contingency because a loaded machine answered late; the autopilot's tests turn it on.
 */
export async function readyIssuer(
  t: TestApp,
  auth: { authorization: string },
  overrides: Partial<typeof SP_ISSUER> & { contingency?: { mode: 'off' | 'offline' | 'epec'; wait_seconds?: number } | null; nfe_contingency?: 'svc' | 'epec' } = {},
): Promise<string> {
  const payload = { ...SP_ISSUER, cnpj: freshBranchCnpj(), contingency: { mode: 'off' }, ...overrides };
  const created = await t.app.inject({ method: 'POST', url: '/v1/issuers', headers: auth, payload });
  if (created.statusCode !== 201) throw new Error(`issuer: ${created.statusCode} ${created.body}`);
  const id = created.json().id as string;
  const body = multipart({ password: 'minhasenha' }, { name: 'pfx', filename: 'cert.pfx', content: certFile('novo_cert_cnpj_06157250000116_senha_minhasenha.pfx') });
  const cert = await t.app.inject({ method: 'POST', url: `/v1/issuers/${id}/certificate`, headers: { ...auth, ...body.headers }, payload: body.payload });
  if (cert.statusCode !== 201) throw new Error(`certificate: ${cert.statusCode} ${cert.body}`);
  const csc = await t.app.inject({ method: 'POST', url: `/v1/issuers/${id}/csc`, headers: auth, payload: TEST_CSC });
  if (csc.statusCode !== 201 && csc.statusCode !== 200) throw new Error(`csc: ${csc.statusCode} ${csc.body}`);
  return id;
}

export function sale(issuerId: string, extra: Record<string, unknown> = {}) {
  return {
    issuer_id: issuerId,
    external_ref: `order-${Math.random().toString(36).slice(2, 10)}`,
    items: [
      { description: 'Cafe torrado 500g', quantity: 2, unit_price: 18.9, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '102' },
      { description: 'Pao frances', quantity: 0.35, unit_price: 16.5, ncm: '19052090', cfop: '5102', unit: 'KG', cst_icms: '102' },
    ],
    payment: { method: 'dinheiro', amount: 50 },
    ...extra,
  };
}

/** Polls GET /v1/nfce/:id until the note leaves `processing` (`ms` is a last guard for a loaded machine). */
export async function waitForSettled(t: TestApp, auth: { authorization: string }, id: string, ms = 20_000) {
  let note: { status?: string } = {};
  return eventually(
    async () => {
      note = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}`, headers: auth })).json();
      return note.status !== 'processing' ? note : null;
    },
    ms,
    () => `note ${id} to leave processing: ${JSON.stringify(note)}`,
  ) as Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Polls GET /v1/nfce/:id until the note reaches `status` (fails at once when it settles in another). */
export async function waitForStatus(t: TestApp, auth: { authorization: string }, id: string, status: string, ms = 20_000) {
  const note = await waitForSettled(t, auth, id, ms);
  if (note.status !== status) throw new Error(`note ${id} is ${note.status}, expected ${status}: ${JSON.stringify(note)}`);
  return note;
}

/**
 * POST /v1/nfce and the note once it left `processing`: asks `Prefer: wait=10` (the longest the API
 * waits) and, should a loaded machine take longer than that (the answer is then 202), polls for it.
 * For tests that need a settled note; the Prefer answer itself is tested in nfce-lifecycle.
 */
export async function emitSettled(t: TestApp, auth: { authorization: string }, payload: object, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, prefer: 'wait=10', ...headers }, payload });
  if (res.statusCode !== 201 && res.statusCode !== 202) throw new Error(`POST /v1/nfce: ${res.statusCode} ${res.body}`);
  const answered = res.json();
  const note = answered.status === 'processing' ? await waitForSettled(t, auth, answered.id) : answered;
  return { res, note };
}

/** The usual start of an emission test: an app with its worker, a fresh account, a ready issuer. */
export async function emittingApp(opts: { clock?: Clock } = {}): Promise<{ t: TestApp; auth: { authorization: string }; issuerId: string }> {
  const t = await createTestApp({ role: 'all', clock: opts.clock });
  const { auth } = await t.newAccount();
  return { t, auth, issuerId: await readyIssuer(t, auth) };
}
