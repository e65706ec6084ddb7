import https from 'node:https';
import { gunzipSync, gzipSync } from 'node:zlib';
import { parsePfx, tlsCredentials } from '../../src/fiscal/certificate/pfx.js';
import { buildPreparedDps, prepareNfse, type NfseRequest } from '../../src/documents/nfse/domain/index.js';
import type { DpsSignatureProfileName } from '../../src/fiscal/xml/nfse/sign-dps.js';
import type { DpsModel } from '../../src/fiscal/xml/nfse/model.js';
import { canonicalElement } from '../../src/fiscal/xml/signature/canonical-element.js';
import { signCanonical, type SigningKey } from '../../src/fiscal/xml/signature/sign.js';
import { RSA_SHA256_EXC_C14N } from '../../src/fiscal/xml/signature/signature-profile.js';
import { brasiliaTime } from './authority-fixtures.js';
import { generateTestPfx } from './generate-certificate.js';

// A provider with an e-CNPJ (CN "NAME:CNPJ", as ICP-Brasil writes it), DPS built by the project's
// own NFS-e domain, and raw HTTPS calls to the simulator's NFS-e API with that client certificate.

export interface NfseProvider {
  cnpj: string;
  credentials: { key: string; cert: string };
  signingKey: SigningKey;
}

export function nfseProvider(cnpj: string): NfseProvider {
  const parsed = parsePfx(generateTestPfx(cnpj, 'x'), 'x');
  return { cnpj, credentials: tlsCredentials(parsed), signingKey: { privateKey: parsed.privateKey, certificateBase64: parsed.certificateBase64 } };
}

export const TAKER_CPF = '52998224725';

const request = (): NfseRequest => ({
  issuer_id: 'iss_1',
  competence_date: brasiliaTime(new Date(Date.now() - 86_400_000)).slice(0, 10),
  service: { national_code: '010101', description: 'Desenvolvimento de software', place_of_provision: { city_code: '3304557' }, nbs: '115021000' },
  tomador: { cpf: TAKER_CPF, name: 'Maria da Silva' },
  values: { service_amount: 1000, iss: { retained: 'nao_retido', rate: 2 } },
});

/** A signed DPS of `provider` (Rio de Janeiro, serie 777) numbered nDPS; `subst` makes it a substitute. */
export function signedDps(provider: NfseProvider, nDPS: number, opts: { profile?: DpsSignatureProfileName; subst?: DpsModel['subst'] } = {}): { xml: string; id: string } {
  const prepared = prepareNfse(request(), {
    issuer: { taxId: provider.cnpj, simplesNacional: 1, specialRegime: 0, cityCode: '3304557', municipalRegistration: '12345' },
    tpAmb: 2,
    taxReform: false,
  });
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.errors));
  const dps = opts.subst ? { ...prepared.dps, subst: opts.subst } : prepared.dps;
  const built = buildPreparedDps(dps, { serie: '777', nDPS: String(nDPS), emittedAt: new Date(), signingKey: provider.signingKey, ...(opts.profile ? { profile: opts.profile } : {}) });
  return { xml: built.xml, id: built.dpsId };
}

/** The DPS with `edit` applied to its text, then signed again (RSA-SHA256 + exclusive C14N): content rules past the signature. */
export function editedDps(xml: string, key: SigningKey, edit: (unsigned: string) => string): string {
  const unsigned = edit(xml.replace(/<Signature[\s\S]*<\/Signature>/, ''));
  const target = canonicalElement(unsigned, 'infDPS');
  const { signatureXml } = signCanonical(target.canonical, target.id, key, RSA_SHA256_EXC_C14N);
  return unsigned.replace('</DPS>', `${signatureXml}</DPS>`);
}

/** A signed pedRegEvento 101101 (shape of test/fixtures/samples/nfse/pedRegEvento_e101101_handmade_unsigned.xml). */
export function signedCancellation(provider: NfseProvider, key: string, authorCnpj = provider.cnpj, tpAmb: 1 | 2 = 2, signingKey = provider.signingKey): string {
  const id = `PRE${key}101101`;
  const xml =
    `<pedRegEvento xmlns="http://www.sped.fazenda.gov.br/nfse" versao="1.01"><infPedReg Id="${id}"><tpAmb>${tpAmb}</tpAmb><verAplic>gateway-test</verAplic>` +
    `<dhEvento>${brasiliaTime(new Date(Date.now() - 60_000))}</dhEvento><CNPJAutor>${authorCnpj}</CNPJAutor><chNFSe>${key}</chNFSe>` +
    `<e101101><xDesc>Cancelamento de NFS-e</xDesc><cMotivo>1</cMotivo><xMotivo>Erro na emissao: valor do servico incorreto</xMotivo></e101101></infPedReg></pedRegEvento>`;
  const target = canonicalElement(xml, 'infPedReg');
  const { signatureXml } = signCanonical(target.canonical, target.id, signingKey, RSA_SHA256_EXC_C14N);
  return xml.replace('</pedRegEvento>', `${signatureXml}</pedRegEvento>`);
}

export const gzB64 = (xml: string) => gzipSync(Buffer.from(xml, 'utf8')).toString('base64');
export const unGzB64 = (b64: string) => gunzipSync(Buffer.from(b64, 'base64')).toString('utf8');

export interface ApiAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  text: string;
}

/** One HTTPS call with the provider's client certificate; rejects when the connection drops unanswered. */
export function callNfseApi(base: { url: string; caPem: string }, who: NfseProvider, method: string, path: string, body?: unknown, scenario?: string): Promise<ApiAnswer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${base.url}${path}`,
      {
        method,
        ca: [base.caPem],
        ...who.credentials,
        agent: false,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...(scenario ? { 'x-sandbox-scenario': scenario } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown = null;
          try {
            json = text ? JSON.parse(text) : null;
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json, text });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
