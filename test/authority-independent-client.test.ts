import https from 'node:https';
import type { Duplex } from 'node:stream';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Tools } from 'node-sped-nfe';
import { startStandaloneSimulator, type StandaloneSimulator } from '../src/authority-sim/cli.js';
import { nfceUrls } from '../src/fiscal/qrcode/nfce-urls.js';
import { FIXTURES, signedNfce, testIssuer, TEST_CSC, uniqueCnpj } from './support/authority-fixtures.js';
import { getTestDb } from './support/db.js';

// node-sped-nfe (an NF-e/NFC-e client published on npm, pinned in package-lock.json) against the
// standalone simulator, configured only through its public options: UF, model, environment, CSC,
// CNPJ and the A1 certificate (PFX + password). It has no option for endpoint addresses (it posts to
// the authorities' published URLs, e.g. https://nfce-homologacao.svrs.rs.gov.br/ws/NfeStatusServico/
// NfeStatusServico4.asmx) nor for a CA (it turns server verification off). So the test plays the
// part of a hosts-file entry: while it runs, connections made through Node's default HTTPS agent go
// to the simulator's port, and everything above TCP (TLS with the client certificate, the paths,
// headers and envelopes) is the library's own.

const cnpj = uniqueCnpj();
let standalone: StandaloneSimulator;
let defaultAgent: https.Agent | undefined;
const seen: string[] = [];

class ToSimulator extends https.Agent {
  constructor(private readonly port: number) {
    super({ keepAlive: false });
  }
  // SNI and every TLS option stay the library's; only the address changes (tls.connect gets host/port).
  override createConnection(options: https.RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    seen.push(options.host ?? '');
    return super.createConnection({ ...options, host: '127.0.0.1', port: this.port }, callback);
  }
}

function tools(): Tools {
  return new Tools(
    {
      mod: '65',
      UF: 'BA',
      tpAmb: 2,
      versao: '4.00',
      CSC: TEST_CSC.token,
      CSCid: TEST_CSC.id,
      CNPJ: cnpj,
      xmllint: 'xmllint',
      timeout: 20,
      openssl: null,
      CPF: undefined as unknown as string,
    },
    // The PFX file's path (the library reads it with `openssl pkcs12`) and its password.
    { pfx: join(FIXTURES, 'certs', 'novo_test_certificate.pfx'), senha: 'nfephp' },
  );
}

/** First text of an element in the library's answer (it returns the payload XML it cut out of the envelope). */
const text = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1] ?? null;

/** An unsigned NFC-e of the simulator's BA template with the QR code base the library completes. */
function unsignedNfce(nNF: number): { xml: string; accessKey: string } {
  let unsigned = '';
  const { accessKey } = signedNfce(testIssuer('plain'), { cnpj, nNF, csc: null, edit: (x) => (unsigned = x) });
  const base = nfceUrls('BA', 2);
  const supl = `<infNFeSupl><qrCode>${base.qrCodeBaseUrl}</qrCode><urlChave>${base.urlChave}</urlChave></infNFeSupl>`;
  return { xml: unsigned.replace('</infNFe>', `</infNFe>${supl}`), accessKey };
}

// node-sped-nfe prints every request and answer (byte arrays included: 160,000 lines in one CI run);
// the worker was still forwarding them when the file ended (vitest's "Closing rpc while
// onUserConsoleLog was pending"). Its output says nothing the assertions do not check.
const quiet = (['log', 'info', 'debug', 'warn', 'error'] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => undefined));

beforeAll(async () => {
  standalone = await startStandaloneSimulator(
    { SIM_DATA_DIR: mkdtempSync(join(tmpdir(), 'authority-sim-npm-')), SIM_CLIENT_AUTH: 'any-certificate', AUTHORITY_SIM_LATENCY_MS: '0' },
    await getTestDb(),
  );
  await standalone.sim.registerCsc(cnpj, 2, TEST_CSC.id, TEST_CSC.token);
  defaultAgent = https.globalAgent;
  https.globalAgent = new ToSimulator(standalone.sim.port);
});
afterAll(async () => {
  // Other files of this worker run after this one (isolate: false): they get Node's agent back.
  if (defaultAgent) {
    https.globalAgent.destroy();
    https.globalAgent = defaultAgent;
  }
  await standalone?.close();
  // The spies stay: the library reads certificates through spawned openssl processes whose callbacks
  // (pem.readCertificateInfo -> console.error) can land after this file ends, and a console call then
  // races the worker's teardown (the same "Closing rpc" error). Later files of the worker log nothing.
  void quiet;
});

describe('node-sped-nfe against the standalone simulator', () => {
  it('status: 107, at the address the library publishes for BA (SVRS)', async () => {
    const answer = await tools().sefazStatus();
    expect(text(answer, 'cStat')).toBe('107');
    expect(seen.at(-1)).toBe('nfce-homologacao.svrs.rs.gov.br');
  });

  it('NFC-e authorization (synchronous 100 and asynchronous 103), consultation 100, cancellation 135, inutilization 102', async () => {
    const t = tools();
    const first = unsignedNfce(1);
    // The library computes the QR code (v2, CSC hash) and signs; the simulator checks both.
    const sync = await t.sefazEnviaLote(await t.xmlSign(first.xml), { idLote: 1, indSinc: 1 } as never);
    expect(text(sync, 'cStat')).toBe('104');
    const protocol = infProt(sync);
    expect(protocol).toMatchObject({ chNFe: first.accessKey, cStat: '100' });
    expect(protocol.nProt).toMatch(/^[0-9]{15}$/);

    const second = unsignedNfce(2);
    const async = await t.sefazEnviaLote(await t.xmlSign(second.xml), { idLote: 2, indSinc: 0 } as never);
    expect(text(async, 'cStat')).toBe('103');
    expect(text(async, 'nRec')).toMatch(/^[0-9]{15}$/);
    // The library has no NFeRetAutorizacao4 call: its consultation is how it learns the outcome.
    const consulted = await t.consultarNFe(second.accessKey);
    expect(text(consulted, 'cStat')).toBe('100');
    expect(infProt(consulted)).toMatchObject({ chNFe: second.accessKey, cStat: '100' });

    const canceled = await t.sefazEvento({ chNFe: first.accessKey, tpEvento: '110111', nProt: protocol.nProt!, xJust: 'Venda desfeita a pedido do cliente' });
    expect(text(canceled, 'cStat')).toBe('128');
    expect(/<retEvento[\s\S]*<cStat>([0-9]+)<\/cStat>/.exec(canceled)?.[1]).toBe('135');
    expect(text(await t.consultarNFe(first.accessKey), 'cStat')).toBe('101');

    const voided = await t.sefazInutiliza({ nSerie: 1, nIni: 7, nFin: 9, xJust: 'Numeracao pulada por falha no sistema' });
    expect(text(voided, 'cStat')).toBe('102');
    expect(text(voided, 'nProt')).toMatch(/^[0-9]{15}$/);
    expect(standalone.sim.stats()).toMatchObject({ authorizations: 2, events: 1, voids: 1 });
  });
});

function infProt(xml: string): Record<'chNFe' | 'cStat' | 'nProt', string | null> {
  const inf = /<infProt[\s\S]*?<\/infProt>/.exec(xml)?.[0] ?? '';
  return { chNFe: text(inf, 'chNFe'), cStat: text(inf, 'cStat'), nProt: text(inf, 'nProt') };
}
