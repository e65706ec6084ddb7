import fc from 'fast-check';
import { nfseKeyCheckDigit } from '../../src/fiscal/xml/nfse/dps-id.js';
import type { DpsAddress, DpsModel, DpsPessoa, DpsTotTrib, DpsValores } from '../../src/fiscal/xml/nfse/model.js';
import { CAPITALS, alphaCnpjArb, cpfArb, numericCnpjArb } from './nfce-arbitraries.js';

// fast-check generators of DPS models for the NFS-e property test. "Valid" = what the national XSD
// (NFSe_v1.01) accepts, plus the rules docs/fiscal/nfse-national.md#dps states: tpEmit 1 without prest/xNome and prest/end,
// series 1-49999 (own software, E0010), cNBS whenever IBSCBS is sent (E0322), IBSCBS only for a
// competence from 2026 (E0850).

export type TakerKind = 'none' | 'cpf' | 'cnpj' | 'foreign';

export interface GeneratedDps {
  model: DpsModel;
  taker: TakerKind;
  alphaCnpj: boolean;
  withholding: boolean;
  interm: boolean;
  reform: boolean;
  subst: boolean;
}

const MUNICIPALITIES = Object.values(CAPITALS).map(([code]) => code);
// TSString: Latin-1 text without leading or trailing spaces; the writer must escape & and <.
const NAMES = ['Bar & Cia', 'Ana Lúcia d\'Ávila', 'Serviços <Teste> Ltda', 'Zé', 'JOSE DA SILVA ME', 'Ação "Limpa" S/A'];
const DESCRIPTIONS = ['Desenvolvimento de sistemas', 'Manutenção & reparo', 'Consultoria\nlinha 2', 'Análise < 10h > 2h', 'Serviço técnico'];
const COUNTRIES = ['PT', 'US', 'AR', 'DE', 'JP'];

const cents = (max: number) => fc.integer({ min: 1, max });
const nationalAddress: fc.Arbitrary<DpsAddress> = fc.record({
  cMun: fc.constantFrom(...MUNICIPALITIES),
  CEP: fc.stringMatching(/^[0-9]{8}$/),
  xCpl: fc.option(fc.constantFrom('Sala 1', 'Apto 12 & 13'), { nil: undefined }),
  nro: fc.constantFrom('1', '123', 'S/N'),
}).map(({ cMun, CEP, xCpl, nro }) => ({ place: { endNac: { cMun, CEP } }, xLgr: 'Rua das Flores', nro, ...(xCpl ? { xCpl } : {}), xBairro: 'Centro' }));
const foreignAddress = (cPais: string): DpsAddress => ({ place: { endExt: { cPais, cEndPost: '1000-001', xCidade: 'Cidade', xEstProvReg: 'Região' } }, xLgr: 'Main Street', nro: '10', xBairro: 'Downtown' });

function person(kind: 'cpf' | 'cnpj' | 'foreign', p: { cpf: string; cnpj: string; name: string; withAddress: boolean; email: boolean; country: string; nif: boolean; addr: DpsAddress }): DpsPessoa {
  const out: DpsPessoa =
    kind === 'foreign'
      ? { id: p.nif ? { NIF: 'NIF-' + p.cpf } : { cNaoNIF: (Number(p.cpf[0]) % 3) as 0 | 1 | 2 }, xNome: p.name, end: foreignAddress(p.country) }
      : { id: kind === 'cpf' ? { CPF: p.cpf } : { CNPJ: p.cnpj }, xNome: p.name, ...(p.withAddress ? { end: p.addr } : {}) };
  if (p.email) out.email = 'contato@example.com';
  return out;
}

const personParts = fc.record({
  cpf: cpfArb, cnpj: numericCnpjArb, name: fc.constantFrom(...NAMES), withAddress: fc.boolean(), email: fc.boolean(),
  country: fc.constantFrom(...COUNTRIES), nif: fc.boolean(), addr: nationalAddress,
});

const totTribArb: fc.Arbitrary<DpsTotTrib> = fc.oneof(
  fc.record({ vTotTribFed: fc.nat(100_000), vTotTribEst: fc.nat(100_000), vTotTribMun: fc.nat(100_000) }).map((v) => ({ vTotTrib: v })),
  fc.record({ pTotTribFed: fc.nat(9_999), pTotTribEst: fc.nat(9_999), pTotTribMun: fc.nat(9_999) }).map((p) => ({ pTotTrib: p })),
  fc.constant({ indTotTrib: 0 as const }),
  fc.nat(9_999).map((p) => ({ pTotTribSN: p })),
);

export function dpsArb(): fc.Arbitrary<GeneratedDps> {
  return fc
    .record({
      alpha: fc.integer({ min: 0, max: 4 }).map((i) => i === 0), prestCnpjN: numericCnpjArb, prestCnpjA: alphaCnpjArb, prestCpf: cpfArb, prestByCpf: fc.boolean(),
      taker: fc.constantFrom<TakerKind>('none', 'cpf', 'cnpj', 'foreign'), toma: personParts, interm: fc.option(personParts, { nil: undefined }),
      intermKind: fc.constantFrom<'cpf' | 'cnpj'>('cpf', 'cnpj'), withholding: fc.boolean(), reform: fc.boolean(),
      tpAmb: fc.constantFrom<1 | 2>(1, 2), day: fc.integer({ min: 0, max: 364 }), serie: fc.integer({ min: 1, max: 49_999 }),
      nDPS: fc.stringMatching(/^[1-9][0-9]{0,14}$/), cLocEmi: fc.constantFrom(...MUNICIPALITIES), im: fc.option(fc.stringMatching(/^[0-9]{1,15}$/), { nil: undefined }),
      opSimpNac: fc.constantFrom<1 | 2 | 3>(1, 2, 3), regEspTrib: fc.constantFrom<0 | 1 | 2 | 3 | 4 | 5 | 6 | 9>(0, 1, 2, 3, 4, 5, 6, 9),
      vServ: cents(999_999_999), desc: fc.option(fc.tuple(fc.nat(1_000), fc.nat(1_000)), { nil: undefined }), dedRed: fc.option(fc.oneof(fc.nat(9_999).map((pDR) => ({ pDR })), fc.nat(10_000).map((vDR) => ({ vDR }))), { nil: undefined }),
      pAliq: fc.option(fc.integer({ min: 200, max: 500 }), { nil: undefined }), totTrib: totTribArb, cNBS: fc.option(fc.stringMatching(/^[0-9]{9}$/), { nil: undefined }),
      cTribMun: fc.option(fc.stringMatching(/^[0-9]{3}$/), { nil: undefined }), desc2: fc.constantFrom(...DESCRIPTIONS), cTribNac: fc.stringMatching(/^[0-9]{6}$/),
      subst: fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 4 },
        { arbitrary: fc.tuple(fc.stringMatching(/^[0-9]{13}$/), fc.constantFrom<'01' | '02' | '03' | '04' | '05' | '99'>('01', '02', '03', '04', '05', '99'), fc.boolean()), weight: 1 },
      ),
      infoCompl: fc.option(fc.record({ docRef: fc.constantFrom('Contrato 12/2026', 'OS <7> & 8'), xPed: fc.constantFrom('PED-1', '42'), xInfComp: fc.constantFrom('Pagamento em 30 dias', 'Obs: "urgente"') }, { requiredKeys: [] }), { nil: undefined }),
      indFinal: fc.option(fc.constantFrom<0 | 1>(0, 1), { nil: undefined }), indDest: fc.constantFrom<0 | 1>(0, 1),
    })
    .map((g) => {
      const date = new Date(Date.UTC(2026, 0, 1) + g.day * 86_400_000).toISOString().slice(0, 10);
      const foreign = g.taker === 'foreign';
      const country = g.toma.country;
      const toma = g.taker === 'none' ? undefined : person(g.taker, g.toma);
      const interm = g.interm ? person(g.intermKind, g.interm) : undefined;
      // Withholding: ISSQN by the taker (2) or the intermediary (3), who must then be present; federal withholdings.
      const tpRetISSQN: 1 | 2 | 3 = !g.withholding ? 1 : interm && (!toma || g.vServ % 2 === 0) ? 3 : toma ? 2 : 1;
      const valores: DpsValores = {
        vServ: g.vServ,
        tribMun: foreign ? { tribISSQN: 3, cPaisResult: country, tpRetISSQN } : { tribISSQN: 1, tpRetISSQN, ...(g.pAliq !== undefined ? { pAliq: g.pAliq } : {}) },
        totTrib: g.totTrib,
      };
      if (g.desc) Object.assign(valores, { vDescIncond: g.desc[0], vDescCond: g.desc[1] });
      if (g.dedRed) valores.dedRed = g.dedRed;
      if (g.withholding) {
        const base = g.vServ;
        valores.tribFed = {
          piscofins: { CST: '01', vBCPisCofins: base, pAliqPis: 65, pAliqCofins: 300, vPis: Math.round(base * 0.0065), vCofins: Math.round(base * 0.03), tpRetPisCofins: 3 },
          vRetCP: Math.round(base * 0.11), vRetIRRF: Math.round(base * 0.015), vRetCSLL: Math.round(base * 0.01),
        };
      } else if (g.vServ % 3 === 0) {
        valores.tribFed = { piscofins: { CST: '01', tpRetPisCofins: 2 } };
      }
      const prestId = g.prestByCpf && !g.alpha ? { CPF: g.prestCpf } : { CNPJ: g.alpha ? g.prestCnpjA : g.prestCnpjN };
      const model: DpsModel = {
        tpAmb: g.tpAmb, dhEmi: `${date}T10:20:30-03:00`, verAplic: 'gateway-1.0.0', serie: String(g.serie), nDPS: g.nDPS, dCompet: date, tpEmit: 1, cLocEmi: g.cLocEmi,
        prest: { id: prestId, ...(g.im ? { IM: g.im } : {}), regTrib: { opSimpNac: g.opSimpNac, ...(g.opSimpNac === 3 ? { regApTribSN: 1 as const } : {}), regEspTrib: g.regEspTrib } },
        serv: {
          locPrest: { cLocPrestacao: g.cLocEmi }, cTribNac: g.cTribNac, ...(g.cTribMun ? { cTribMun: g.cTribMun } : {}), xDescServ: g.desc2,
          ...(g.cNBS || g.reform ? { cNBS: g.cNBS ?? '115021000' } : {}),
        },
        valores,
      };
      if (g.subst) {
        // the replaced NFS-e: same municipality and provider, generated by Sefin (ambGer 2), key DV computed (docs/fiscal/nfse-national.md#access-key)
        const id = model.prest.id as { CNPJ?: string; CPF?: string };
        const body = g.cLocEmi + '2' + (id.CNPJ ? '2' + id.CNPJ : '1000' + id.CPF!) + g.subst[0] + date.slice(2, 4) + date.slice(5, 7) + '123456789';
        model.subst = { chSubstda: body + nfseKeyCheckDigit(body), cMotivo: g.subst[1], ...(g.subst[2] ? { xMotivo: 'Correção do valor do serviço prestado' } : {}) };
      }
      if (g.infoCompl && Object.keys(g.infoCompl).length > 0) model.serv.infoCompl = g.infoCompl;
      if (toma) model.toma = toma;
      if (interm) model.interm = interm;
      if (g.reform) model.IBSCBS = { finNFSe: 0, ...(g.indFinal !== undefined ? { indFinal: g.indFinal } : {}), cIndOp: '100301', indDest: g.indDest, CST: '000', cClassTrib: '000001' };
      return { model, taker: g.taker, alphaCnpj: g.alpha, withholding: tpRetISSQN !== 1 || g.withholding, interm: !!interm, reform: g.reform, subst: !!g.subst };
    });
}
