// Your first NFC-e with the TypeScript SDK (sdk/), against the sandbox of `npm start`:
//
//   npx tsx examples/sdk-first-nfce.ts                      # http://127.0.0.1:8080, sk_sandbox_public
//   GATEWAY_URL=http://127.0.0.1:18080 npx tsx examples/sdk-first-nfce.ts
//
// Registers the issuer of the test certificate (or finds it, on a second run), uploads the
// certificate and the CSC, sells with `Prefer: wait=10` and prints the note's status and access key.
import { readFile } from 'node:fs/promises';
import { createClient, FiscalGatewayError, orThrow } from '../sdk/src/index.js';

const client = createClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080',
  apiKey: process.env.GATEWAY_API_KEY ?? 'sk_sandbox_public',
});

/** The issuer's id: created now, or the one the account already has for this CNPJ (issuer_exists names it). */
async function registerIssuer(): Promise<string> {
  const created = await client.POST('/v1/issuers', {
    body: {
      cnpj: '06157250000116',
      razao_social: 'Padaria Exemplo Ltda',
      nome_fantasia: 'Padaria Exemplo',
      ie: '110042490114',
      uf: 'SP',
      ambiente: 'homologacao',
      regime_tributario: 'simples',
      endereco: { logradouro: 'Avenida Paulista', numero: '1000', bairro: 'Bela Vista', codigo_municipio: '3550308', cep: '01310100', telefone: '1133334444' },
    },
  });
  if (created.data) return created.data.id;
  const existing = created.error.code === 'issuer_exists' ? /iss_\w+/.exec(created.error.detailFor('cnpj') ?? '')?.[0] : undefined;
  if (!existing) throw created.error;
  return existing;
}

try {
  const issuerId = await registerIssuer();
  console.log(`issuer      ${issuerId}`);

  const pfx = await readFile(new URL('./novo_cert_cnpj_06157250000116_senha_minhasenha.pfx', import.meta.url));
  const certificate = await orThrow(client.uploadCertificate(issuerId, { pfx, password: 'minhasenha' }));
  console.log(`certificate ${certificate.status}, valid until ${certificate.not_after}`);

  await orThrow(client.POST('/v1/issuers/{id}/csc', { params: { path: { id: issuerId } }, body: { id_csc: '000001', csc: 'A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6' } }));
  console.log('csc         registered');

  // The SDK sends an Idempotency-Key of its own (a UUID); an order id makes a rerun of the whole
  // program safe too. Prefer: wait=10 holds the answer until the authority decides (1-3 s here).
  const orderRef = `order-${Date.now()}`;
  const note = await orThrow(
    client.POST('/v1/nfce', {
      body: {
        issuer_id: issuerId,
        external_ref: orderRef,
        items: [{ description: 'Cafe torrado 500g', quantity: 2, unit_price: 18.9, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '102' }],
        payment: { method: 'dinheiro', amount: 50 },
      },
      prefer: { wait: 10 },
      idempotencyKey: `${orderRef}-attempt-1`,
    }),
  );
  console.log(`nfce        ${note.id}`);
  console.log(`status      ${note.status}`);
  console.log(`number      ${note.number}`);
  console.log(`access key  ${note.access_key}`);
  console.log(`total       R$ ${note.totals.vNF?.toFixed(2)} (change R$ ${note.totals.vTroco?.toFixed(2)})`);
} catch (err) {
  if (!(err instanceof FiscalGatewayError)) throw err;
  console.error(`${err.status} ${err.code}: ${err.message}`);
  for (const d of err.details) console.error(`  ${d.field}: ${d.message}`);
  if (err.requestId) console.error(`  request_id ${err.requestId}`);
  process.exitCode = 1;
}
