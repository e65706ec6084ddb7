/**
 * The series an issuer with a CNPJ numbers its NF-e (55) and NFC-e (65) in from its own software
 * (procEmi 0). Sources, in docs/fiscal/series.md: the XSD's documentation of ide/serie (leiauteNFe_v4.00,
 * TSerie 0-999: normal 0-889, "Avulsa Fisco" 890-899, SCAN 900-999), NT 2018.001 (910-969 for issuers
 * identified by CPF; MOC rule B26-10, cStat 244, refuses a series outside 0-889 and 920-969 from own
 * software). The gateway's issuers have a CNPJ: 0-889.
 */
export const OWN_SERIES_MIN = 0;
export const OWN_SERIES_MAX = 889;

/** Models whose series the API manages (GET/POST /v1/issuers/:id/series); NFS-e keeps its DPS series in the issuer's nfse settings. */
export const SERIES_MODELS = [55, 65] as const;
export type SeriesModel = (typeof SERIES_MODELS)[number];

/** The series every issuer has without creating it: the one a sale naming none is numbered in. */
export const DEFAULT_SERIES = 1;

/** Ajuste SINIEF 07/05 cl. 3ª II (NF-e) and 19/16 (NFC-e): numbers run from 1 to 999.999.999 per series. */
export const MAX_NUMBER = 999_999_999;
