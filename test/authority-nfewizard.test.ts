import tls from 'node:tls';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import NFeWizard, { Environment, GerarConsulta, SaveFiles, Utility, XmlBuilder } from 'nfewizard-io';
import { BaseNFSe } from '@nfewizard/shared';
import { startStandaloneSimulator, type StandaloneSimulator } from '../src/authority-sim/cli.js';
import { nfe55Xml } from '../src/authority-sim/nfe55-template.js';
import { brasiliaTime, uniqueCnpj } from './support/authority-fixtures.js';
import { getTestDb } from './support/db.js';
import { generateTestPfx } from './support/generate-certificate.js';
import { callNfseApi, gzB64, nfseProvider, signedCancellation, signedDps } from './support/nfse-sim-calls.js';

// nfewizard-io (an NF-e client published on npm, pinned in package-lock.json) against the standalone
// simulator, configured only through its public options (UF, environment, A1 PFX + password). It
// posts to the authorities' published addresses (e.g. https://homologacao.nfe.fazenda.sp.gov.br/ws/
// nfestatusservico4.asmx) with its own HTTPS agent, SOAP 1.2 envelopes sent as text/xml for SP, RS
// and SVRS (docs/fiscal/soap-transport.md). So the test plays a hosts-file entry at the TLS layer:
// while it runs, tls.connect goes to the simulator's port; the paths, headers, envelopes and the
// client certificate are the library's own.

const cnpj = uniqueCnpj();
const pfxDir = mkdtempSync(join(tmpdir(), 'nfewizard-'));
const pfxPath = join(pfxDir, 'a1.pfx');
let standalone: StandaloneSimulator;
const hosts: string[] = [];
const originalConnect = tls.connect;

beforeAll(async () => {
  writeFileSync(pfxPath, generateTestPfx(cnpj, 'senha'));
  standalone = await startStandaloneSimulator(
    { SIM_DATA_DIR: mkdtempSync(join(tmpdir(), 'authority-sim-nfewizard-')), SIM_CLIENT_AUTH: 'any-certificate', AUTHORITY_SIM_LATENCY_MS: '0' },
    await getTestDb(),
  );
  // The library's agent keeps server verification on; the simulator's CA is the only one trusted.
  (tls as { connect: unknown }).connect = (options: tls.ConnectionOptions, ...rest: unknown[]) => {
    hosts.push(`${options.servername ?? options.host}`);
    return (originalConnect as (...a: unknown[]) => tls.TLSSocket)({ ...options, host: '127.0.0.1', port: standalone.sim.port, ca: [standalone.sim.caPem], servername: undefined, checkServerIdentity: () => undefined }, ...rest);
  };
}, 60_000);
afterAll(async () => {
  (tls as { connect: unknown }).connect = originalConnect;
  await standalone?.close();
});

function config(UF: string) {
  const dir = mkdtempSync(join(tmpdir(), 'nfewizard-files-'));
  return {
    dfe: {
      baixarXMLDistribuicao: false, pathXMLDistribuicao: dir, armazenarXMLAutorizacao: false, pathXMLAutorizacao: dir,
      armazenarXMLRetorno: false, pathXMLRetorno: dir, armazenarXMLConsulta: false, pathXMLConsulta: dir,
      armazenarXMLConsultaComTagSoap: false, armazenarRetornoEmJSON: false, pathRetornoEmJSON: dir,
      pathCertificado: pfxPath, senhaCertificado: 'senha', UF, CPFCNPJ: cnpj,
    },
    nfe: { ambiente: 2, versaoDF: '4.00' },
    lib: { connection: { timeout: 20_000 }, log: { exibirLogNoConsole: false, armazenarLogs: false, pathLogs: dir }, useOpenSSL: false, useForSchemaValidation: 'validateSchemaJsBased' },
  };
}

async function wizard(UF: string): Promise<InstanceType<typeof NFeWizard>> {
  const w = new NFeWizard();
  await w.NFE_LoadEnvironment({ config: config(UF) } as never);
  return w;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const answer = (x: unknown) => x as Record<string, any>;

describe('nfewizard-io against the standalone simulator', () => {
  it.each([
    ['SP', 'homologacao.nfe.fazenda.sp.gov.br'],
    ['RS', 'nfe-homologacao.sefazrs.rs.gov.br'],
    ['SC', 'nfe-homologacao.svrs.rs.gov.br'],
  ])('status %s: 107 at the address the library publishes (%s)', async (UF, host) => {
    const out = answer(await (await wizard(UF)).NFE_ConsultaStatusServico());
    expect(out).toMatchObject({ cStat: '107' });
    expect(hosts.at(-1)).toBe(host);
  });

  it('RS: authorization 100, consultation 100 with the same protocol, cancellation 135, inutilization of NF-e numbers 102', async () => {
    const w = await wizard('RS');
    const nNF = 101;
    const { xml, accessKey } = nfe55Xml({ emitCnpj: cnpj, dest: { CPF: '52998224725' }, nNF, dhEmi: new Date(Date.now() - 60_000) });
    const authorized = answer(await w.NFE_Autorizacao(`<enviNFe versao="4.00" xmlns="http://www.portalfiscal.inf.br/nfe"><idLote>1</idLote><indSinc>1</indSinc>${xml}</enviNFe>`));
    const prot = JSON.stringify(authorized);
    expect(prot).toContain(accessKey);
    const nProt = /"nProt":"?(\d{15})/.exec(prot)?.[1];
    expect(nProt, prot.slice(0, 600)).toBeDefined();

    const consulted = answer(await w.NFE_ConsultaProtocolo(accessKey));
    expect(JSON.stringify(consulted)).toContain(nProt!);
    expect(consulted.cStat).toBe('100');

    const cancel = answer(await w.NFE_Cancelamento({
      idLote: 2, modelo: '55',
      evento: [{
        cOrgao: 43, tpAmb: 2, CNPJ: cnpj, chNFe: accessKey, dhEvento: brasiliaTime(new Date()), tpEvento: '110111', nSeqEvento: 1, verEvento: '1.00',
        detEvento: { descEvento: 'Cancelamento', nProt: nProt!, xJust: 'Cliente desistiu da compra antes da entrega' },
      }],
    } as never));
    expect(JSON.stringify(cancel)).toMatch(/"cStat":"?135/);

    const year = String(new Date().getFullYear()).slice(-2);
    const voided = answer(await w.NFE_Inutilizacao({ cUF: 43, CNPJ: cnpj, ano: year, mod: '55', serie: '1', nNFIni: '200', nNFFin: '201', xJust: 'Numeracao pulada por falha do sistema' } as never));
    expect(JSON.stringify(voided)).toMatch(/"cStat":"?102/);
  }, 60_000);
});

describe("nfewizard's NFS-e distribution (ADN) against the simulator", () => {
  // The library's NFS-e service (@nfewizard/nfse 1.0.7, the only version published) cannot be
  // installed: it depends on @nfewizard/types 1.0.11, which npm does not have. Its EventosPorChave
  // is four overrides of @nfewizard/shared's BaseNFSe (packages/nfse/src/services/NFSeDistribuicao/
  // NFSeDistribuicaoService.ts): GET, no body, `/${chaveAcesso}/Eventos` after the published
  // NFSe_EventosPorChave address. The same four here; the request itself is the library's.
  class EventosPorChave extends BaseNFSe {
    protected override prepararDados() { return null; }
    protected override getHttpMethod() { return 'GET' as const; }
    protected override getUrlPath(data: { chaveAcesso: string }) { return `/${data.chaveAcesso}/Eventos`; }
    protected override getWebServiceUrl() { return this.utility.getWebServiceUrlNFSe('NFSe_EventosPorChave'); }
  }

  it('GET /contribuintes/NFSe/{chave}/Eventos: the cancellation of an NFS-e of the certificate holder', async () => {
    const provider = nfseProvider(cnpj);
    const issued = await callNfseApi(standalone.sim, provider, 'POST', '/SefinNacional/nfse', { dpsXmlGZipB64: gzB64(signedDps(provider, 1).xml) });
    expect(issued.status, issued.text).toBe(201);
    const key: string = issued.json.chaveAcesso;
    const event = await callNfseApi(standalone.sim, provider, 'POST', `/SefinNacional/nfse/${key}/eventos`, { pedidoRegistroEventoXmlGZipB64: gzB64(signedCancellation(provider, key)) });
    expect(event.status, event.text).toBe(201);

    // Loaded as the library's NFS-e adapter loads it (packages/nfse/src/adapters/NFSe.ts): certificate agent, axios, URL table.
    const environment = new Environment(config('RJ') as never);
    const { axios } = await environment.loadEnvironment();
    const utility = new Utility(environment);
    const xmlBuilder = new XmlBuilder(environment);
    const service = new EventosPorChave(environment, utility, xmlBuilder, 'NFSe_EventosPorChave', axios, new SaveFiles(environment, utility), new GerarConsulta(environment, utility, xmlBuilder));
    const lot = answer(await service.Exec({ chaveAcesso: key }));
    expect(hosts.at(-1)).toBe('adn.producaorestrita.nfse.gov.br');
    expect(lot).toMatchObject({ StatusProcessamento: 'DOCUMENTOS_LOCALIZADOS', TipoAmbiente: 'HOMOLOGACAO' });
    expect(lot.LoteDFe.map((d: { ChaveAcesso: string; TipoEvento: string }) => [d.ChaveAcesso, d.TipoEvento])).toEqual([[key, 'CANCELAMENTO']]);
  }, 60_000);
});
