// Where Sefin Nacional answers (docs/fiscal/nfse-national.md#hosts-and-transport, Swagger `host` + `basePath`), and its paths (docs/fiscal/nfse-national.md#calls).

export type NfseTpAmb = 1 | 2;

/** tpAmb 1 = production, 2 = restricted production (homologation). */
export const SEFIN_NACIONAL_BASE_URLS: Record<NfseTpAmb, string> = {
  1: 'https://sefin.nfse.gov.br/SefinNacional',
  2: 'https://sefin.producaorestrita.nfse.gov.br/SefinNacional',
};

/**
 * The base URL for an environment; with an override (the sandbox's simulator) every call goes to
 * `${overrideBaseUrl}/SefinNacional`, the same paths below it.
 */
export function sefinBaseUrl(tpAmb: NfseTpAmb, overrideBaseUrl?: string): string {
  return overrideBaseUrl ? `${overrideBaseUrl.replace(/\/+$/, '')}/SefinNacional` : SEFIN_NACIONAL_BASE_URLS[tpAmb];
}

const seg = encodeURIComponent;

/** docs/fiscal/nfse-national.md#calls paths, relative to the base URL. */
export const SEFIN_PATHS = {
  issue: () => '/nfse',
  dps: (dpsId: string) => `/dps/${seg(dpsId)}`,
  nfse: (accessKey: string) => `/nfse/${seg(accessKey)}`,
  events: (accessKey: string) => `/nfse/${seg(accessKey)}/eventos`,
  event: (accessKey: string, tpEvento: string, nSeqEvento: number) => `/nfse/${seg(accessKey)}/eventos/${seg(tpEvento)}/${seg(String(nSeqEvento))}`,
};
