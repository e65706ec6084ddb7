// Every state as data (docs/fiscal/states.md gives the source of each fact): who authorizes its
// NF-e and NFC-e, which contingency authority (SVC) takes its NF-e, whether it already enforces the
// technical responsible (infRespTec, MOC ZD01-10), its cancellation windows, the IE algorithm it
// uses, and whether an end-to-end test plays a sale through the simulator in it. The endpoint and QR
// tables stay in assets/fiscal/webservices (fiscal/sefaz/endpoints.ts, fiscal/qrcode/nfce-urls.ts);
// uf-catalog.ts checks them against this file to say what a state still lacks.

export type Uf =
  | 'AC' | 'AL' | 'AM' | 'AP' | 'BA' | 'CE' | 'DF' | 'ES' | 'GO' | 'MA' | 'MG' | 'MS' | 'MT' | 'PA'
  | 'PB' | 'PE' | 'PI' | 'PR' | 'RJ' | 'RN' | 'RO' | 'RR' | 'RS' | 'SC' | 'SE' | 'SP' | 'TO';

/** The authority that answers a state's documents: its own SEFAZ, or a shared virtual one. */
export type Authorizer = Uf | 'SVRS' | 'SVAN';

export interface StateFacts {
  uf: Uf;
  /** NF-e (model 55) authorizer (docs/fiscal/states.md: autorizadores.json, sped-nfe). */
  nfeAuthorizer: Authorizer;
  /** NFC-e (model 65) authorizer. */
  nfceAuthorizer: Authorizer;
  /** SVC contingency of its NF-e (tpEmis 6 SVC-AN, 7 SVC-RS; NFC-e has none, cStat 783). */
  svc: 'SVC-AN' | 'SVC-RS';
  /** MOC ZD01-10 (972) is in force: every NF-e and NFC-e must carry infRespTec. */
  respTecRequired: boolean;
  /** NFC-e cancellation window, minutes after authorization (Ajuste SINIEF 19/16 cl. 15: 30 nationally). */
  nfceCancelMinutes: number;
  /** NF-e cancellation window, hours after authorization (Ajuste SINIEF 07/05: 24 nationally). */
  nfeCancelHours: number;
  /** It runs the NFC-e EPEC (tpEmis 4, MOC B22-34's "a critério da UF"; docs/fiscal/offline-contingency.md#epec-sp). */
  nfceEpec: boolean;
  /** The state's IE check-digit algorithm (SINTEGRA), by state code in fiscal/layout/state-registration.ts. */
  ieAlgorithm: Uf;
  /** A sale is authorized and cancelled through the simulator in this state (test/state-coverage.test.ts). */
  endToEnd: boolean;
}

// MOC 7.0 Anexo I, rule ZD01-10 (observation, NT 2018.005 v1.30): in force in AM, MS, PE, PR, SC and TO.
const RESP_TEC = new Set<Uf>(['AM', 'MS', 'PE', 'PR', 'SC', 'TO']);
// docs/fiscal/offline-contingency.md#epec-sp: only São Paulo publishes an NFC-e EPEC service.
const NFCE_EPEC = new Set<Uf>(['SP']);
// sped-nfe Contingency.php (docs/fiscal/states.md): SVC-RS serves these; SVC-AN every other state.
const SVC_RS = new Set<Uf>(['AM', 'BA', 'GO', 'MA', 'MS', 'MT', 'PE', 'PR']);

// [uf, NF-e authorizer, NFC-e authorizer] as autorizadores.json and sefaz_endpoints_v4_derived.json give them.
const AUTHORIZERS: ReadonlyArray<readonly [Uf, Authorizer, Authorizer]> = [
  ['AC', 'SVRS', 'SVRS'], ['AL', 'SVRS', 'SVRS'], ['AM', 'AM', 'AM'], ['AP', 'SVRS', 'SVRS'],
  ['BA', 'BA', 'SVRS'], ['CE', 'SVRS', 'SVRS'], ['DF', 'SVRS', 'SVRS'], ['ES', 'SVRS', 'SVRS'],
  ['GO', 'GO', 'GO'], ['MA', 'SVAN', 'SVRS'], ['MG', 'MG', 'MG'], ['MS', 'MS', 'MS'],
  ['MT', 'MT', 'MT'], ['PA', 'SVRS', 'SVRS'], ['PB', 'SVRS', 'SVRS'], ['PE', 'PE', 'SVRS'],
  ['PI', 'SVRS', 'SVRS'], ['PR', 'PR', 'PR'], ['RJ', 'SVRS', 'SVRS'], ['RN', 'SVRS', 'SVRS'],
  ['RO', 'SVRS', 'SVRS'], ['RR', 'SVRS', 'SVRS'], ['RS', 'RS', 'RS'], ['SC', 'SVRS', 'SVRS'],
  ['SE', 'SVRS', 'SVRS'], ['SP', 'SP', 'SP'], ['TO', 'SVRS', 'SVRS'],
];

// States whose sale -> authorized -> cancelled runs through the simulator in test/state-coverage.test.ts.
const END_TO_END = new Set<Uf>(AUTHORIZERS.map(([uf]) => uf));

const STATES: ReadonlyMap<Uf, StateFacts> = new Map(
  AUTHORIZERS.map(([uf, nfe, nfce]) => [
    uf,
    {
      uf,
      nfeAuthorizer: nfe,
      nfceAuthorizer: nfce,
      svc: SVC_RS.has(uf) ? 'SVC-RS' : 'SVC-AN',
      respTecRequired: RESP_TEC.has(uf),
      // No state in docs/fiscal/states.md's sources sets a shorter window than the national ones.
      nfceCancelMinutes: 30,
      nfeCancelHours: 24,
      nfceEpec: NFCE_EPEC.has(uf),
      ieAlgorithm: uf,
      endToEnd: END_TO_END.has(uf),
    },
  ]),
);

/** The 27 states, ordered by code. */
export function listStates(): StateFacts[] {
  return [...STATES.values()];
}

/** A state's facts; undefined for a code that is not a state. */
export function stateFacts(uf: string): StateFacts | undefined {
  return STATES.get(uf.toUpperCase() as Uf);
}

/** MOC ZD01-10: whether the state rejects (972) an NF-e or NFC-e without infRespTec. */
export function respTecRequired(uf: string): boolean {
  return stateFacts(uf)?.respTecRequired ?? false;
}
