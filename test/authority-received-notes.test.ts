import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthoritySimulator, type AuthoritySimulator } from '../src/authority-sim/authority-simulator.js';
import { nfeProcOf } from '../src/authority-sim/received-documents.js';
import { remoteSimulatorLink, SimulatorAdminError } from '../src/authority-sim/sim-admin-client.js';
import type { SimulatorLink } from '../src/authority-sim/sim-link.js';
import { createSefazClient, type SefazClient } from '../src/fiscal/sefaz/sefaz-client.js';
import { testIssuer, uniqueCnpj } from './support/authority-fixtures.js';
import { signedNfe55 } from './support/authority-nfe55.js';
import { getTestDb } from './support/db.js';

// Received documents on demand through the admin API (POST /sim/admin/received-notes): the simulator
// issues a third party's NF-e to a recipient, or holds a signed nfeProc; the recipient then finds it.
const TOKEN = 'received-notes-admin-token-0123456789';
let sim: AuthoritySimulator;
let link: SimulatorLink;
let client: SefazClient;
const issuer = testIssuer();

beforeAll(async () => {
  sim = await startAuthoritySimulator({ db: await getTestDb(), adminToken: TOKEN });
  await sim.registerClientCertificate(issuer.credentials.cert);
  link = remoteSimulatorLink({ url: sim.url, caPem: sim.caPem, token: TOKEN });
  client = createSefazClient({ credentials: issuer.credentials, ca: [sim.caPem], endpointOverride: { baseUrl: sim.url }, responseTimeoutMs: 20_000 });
});
afterAll(async () => {
  client.close();
  await sim.close();
});

const prot = (key: string, cStat = 100) =>
  `<protNFe versao="4.00"><infProt><tpAmb>2</tpAmb><verAplic>SVRS</verAplic><chNFe>${key}</chNFe><dhRecbto>2026-03-10T10:00:00-03:00</dhRecbto>` +
  `<nProt>143260000000001</nProt><digVal>x</digVal><cStat>${cStat}</cStat><xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe>`;

describe('POST /sim/admin/received-notes', () => {
  it('issues a third party\'s note or holds a signed nfeProc; the recipient downloads both summaries', async () => {
    const recipient = uniqueCnpj();
    const issued = await link.holdReceivedNote({ recipient: { CNPJ: recipient } });
    expect(issued.accessKey).toMatch(/^43\d{4}11444777000161550/);
    const own = signedNfe55(issuer, { cnpj: uniqueCnpj(), nNF: 7, dest: { CNPJ: recipient } });
    const held = await link.holdReceivedNote({ recipient: { CNPJ: recipient }, nfeProcXml: nfeProcOf(own.xml, prot(own.accessKey)) });
    expect(held).toEqual({ accessKey: own.accessKey, nProt: '143260000000001' });
    const out = await client.distribute({ tpAmb: 2, interested: { CNPJ: recipient }, query: { ultNSU: 0 } });
    expect(out.kind === 'documents' && out.documents.map((d) => d.summary?.kind === 'resNFe' && d.summary.accessKey)).toEqual([issued.accessKey, own.accessKey]);
  });

  it('422 for a tampered note, an unauthorised protocol another recipient or a recipient that is no CNPJ/CPF; 401 without the token', async () => {
    const recipient = uniqueCnpj();
    const own = signedNfe55(issuer, { cnpj: uniqueCnpj(), nNF: 8, dest: { CNPJ: recipient } });
    const status = (p: Promise<unknown>) => p.then(() => 201, (err: unknown) => (err instanceof SimulatorAdminError ? err.status : -1));
    const tampered = nfeProcOf(own.xml.replace('<vNF>500.00<', '<vNF>5.00<'), prot(own.accessKey));
    expect(await status(link.holdReceivedNote({ recipient: { CNPJ: recipient }, nfeProcXml: tampered }))).toBe(422);
    expect(await status(link.holdReceivedNote({ recipient: { CNPJ: recipient }, nfeProcXml: nfeProcOf(own.xml, prot(own.accessKey, 539)) }))).toBe(422);
    expect(await status(link.holdReceivedNote({ recipient: { CNPJ: uniqueCnpj() }, nfeProcXml: nfeProcOf(own.xml, prot(own.accessKey)) }))).toBe(422);
    expect(await status(link.holdReceivedNote({ recipient: { CNPJ: 'x' } }))).toBe(422);
    const wrongToken = remoteSimulatorLink({ url: sim.url, caPem: sim.caPem, token: 'not-the-token-at-all' });
    expect(await status(wrongToken.holdReceivedNote({ recipient: { CNPJ: recipient } }))).toBe(401);
  });
});
