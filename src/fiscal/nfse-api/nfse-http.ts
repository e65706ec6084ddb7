// The one HTTP exchange the client needs, as a function it is given. fiscal/sefaz/authority-access.ts
// hands it requestOverMutualTls (https-transport.ts) bound to the issuer's certificate and the shared
// keep-alive pool; these shapes are a structural subset of that transport's, so the client does not
// import fiscal/sefaz (which builds it: importing back would close a circle between the two folders).

export interface NfseHttpRequest {
  method: 'GET' | 'HEAD' | 'POST';
  url: string;
  body?: string | undefined;
  headers: Record<string, string>;
}

/** `inDoubt`: the whole request left before the failure (whatever the method). */
export type NfseHttpExchange =
  | { kind: 'response'; status: number; body: string; headers?: Record<string, string | string[] | undefined> | undefined }
  | { kind: 'timeout'; phase: 'connect' | 'response'; inDoubt: boolean }
  | { kind: 'error'; reason: string; inDoubt: boolean };

/** Sends one request; never throws for network conditions. */
export type NfseHttpSend = (request: NfseHttpRequest) => Promise<NfseHttpExchange>;
