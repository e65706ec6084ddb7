// Whose request this is, for an outage scoped to one issuer. The message names the issuer in most
// services: the NF-e's emitter (NFeAutorizacao4), the event's or voiding's author, the interested
// party of a distribution, the CNPJ inside the access key (positions 7-20, docs/fiscal/cnf.md) of a
// consultation. Status and receipt messages name nobody: they stand for the client certificate's
// CNPJ (ICP-Brasil 2.16.76.1.3.3) and for the issuers this certificate was last seen sending
// documents for (sandbox test certificates carry no CNPJ; branches share their head office's).
import type { TLSSocket } from 'node:tls';
import { icpBrasilIdentity } from '../fiscal/certificate/icp-brasil.js';
import { sliceElement, textOf } from '../fiscal/sefaz/xml-slice.js';
import { ISSUER_ID } from './outage.js';
import type { SimService } from './sim-router.js';

interface Presented {
  fingerprint: string | null;
  cnpj: string | null;
}

// Certificates remembered with their issuers; a few thousand is far past any sandbox.
const MAX_CERTIFICATES = 5000;
const MAX_ISSUERS_PER_CERTIFICATE = 50;

export class RequestParties {
  private readonly bySocket = new WeakMap<TLSSocket, Presented>();
  private readonly seenWith = new Map<string, Set<string>>();

  /**
   * `parties`: the issuers a request stands for (usually one; none when nothing tells); `issuer`:
   * the one the message or else the certificate names (null when neither does).
   */
  of(socket: TLSSocket, service: SimService, body: string): { issuer: string | null; parties: string[] } {
    const presented = this.presented(socket);
    const named = namedIssuer(service, body);
    if (named) {
      this.remember(presented.fingerprint, named);
      return { issuer: named, parties: [named] };
    }
    const seen = presented.fingerprint ? (this.seenWith.get(presented.fingerprint) ?? []) : [];
    return { issuer: presented.cnpj, parties: [...new Set([...(presented.cnpj ? [presented.cnpj] : []), ...seen])] };
  }

  private presented(socket: TLSSocket): Presented {
    let p = this.bySocket.get(socket);
    if (!p) {
      const peer = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate() : undefined;
      const raw = peer?.raw;
      const cn = peer?.subject?.CN;
      p = raw
        ? { fingerprint: peer.fingerprint256 ?? null, cnpj: icpBrasilIdentity(raw, Array.isArray(cn) ? cn.join(' ') : (cn ?? '')).cnpj }
        : { fingerprint: null, cnpj: null };
      this.bySocket.set(socket, p);
    }
    return p;
  }

  private remember(fingerprint: string | null, issuer: string): void {
    if (!fingerprint) return;
    let set = this.seenWith.get(fingerprint);
    if (!set) {
      if (this.seenWith.size >= MAX_CERTIFICATES) this.seenWith.delete(this.seenWith.keys().next().value!);
      set = new Set();
      this.seenWith.set(fingerprint, set);
    }
    if (set.has(issuer)) return;
    if (set.size >= MAX_ISSUERS_PER_CERTIFICATE) set.delete(set.values().next().value!);
    set.add(issuer);
  }
}

/** The issuer the message names, upper case; null when it names none (status, receipt) or is unreadable. */
export function namedIssuer(service: SimService, body: string): string | null {
  const idOf = (xml: string | undefined) => {
    if (xml === undefined) return null;
    const id = (textOf(xml, 'CNPJ') ?? textOf(xml, 'CPF'))?.trim().toUpperCase();
    return id && ISSUER_ID.test(id) ? id : null;
  };
  switch (service) {
    case 'autorizacao':
      return idOf(sliceElement(body, 'emit')?.inner);
    case 'recepcaoEvento':
      return idOf(sliceElement(body, 'infEvento')?.inner);
    case 'inutilizacao':
      return idOf(sliceElement(body, 'infInut')?.inner);
    case 'distribuicaoDFe':
      return idOf(sliceElement(body, 'distDFeInt')?.inner);
    case 'consultaProtocolo': {
      const key = textOf(body, 'chNFe')?.trim().toUpperCase() ?? '';
      return /^[0-9]{6}[0-9A-Z]{12}[0-9]{2}/.test(key) ? key.slice(6, 20) : null;
    }
    default:
      return null;
  }
}
