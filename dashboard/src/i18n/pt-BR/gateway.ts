// The lines of a note's timeline the gateway writes itself. Error messages and
// field details arrive in Portuguese from the gateway (every call asks Accept-Language: pt-BR,
// api/client.ts; the catalog is src/http/i18n/); the timeline's lines are stored records the API
// returns as written, so the dashboard says the ones it knows in Portuguese and shows any other as
// the gateway wrote it. Each pattern matches a whole sentence written in src/.
type Rule = readonly [RegExp, (...parts: string[]) => string];

export const gateway: readonly Rule[] = [
  // src/documents/*/services: the lines of a note's timeline the gateway writes itself (the authority's own are in Portuguese)
  [/^sent to the authority \(attempt (\d+)\)$/, (n) => `enviada à SEFAZ (tentativa ${n})`],
  [/^lot received: receipt (\S+)$/, (r) => `lote recebido: recibo ${r}`],
  [/^DPS sent to Sefin Nacional \(attempt (\d+)\)$/, (n) => `DPS enviada à Sefin Nacional (tentativa ${n})`],
  [/^(NF-e|NFC-e|NFS-e) (\d+) series (\d+) signed$/, (kind, n, s) => `${kind} ${n} série ${s} assinada`],
  [/^cancellation not confirmed: (\S+)$/, (why) => `cancelamento não confirmado: ${why}`],
  [/^correction letter (\d+) not confirmed: (\S+)$/, (n, why) => `carta de correção ${n} não confirmada: ${why}`],
  [/^Sefin asked to wait (\d+) s \(Retry-After\)$/, (s) => `a Sefin Nacional pediu para aguardar ${s} s (Retry-After)`],
];
