// A real OpenID provider for the single sign-on tests: oidc-provider on
// 127.0.0.1, one client per gateway slot (google, microsoft), PKCE required. The login and consent
// interaction completes itself with the claims the test chose: no browser, no form.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export type Slot = 'google' | 'microsoft';

/** Who signs in at the provider next: the test sets it before each flow. */
export interface TestUser {
  sub: string;
  email?: string;
  /** Absent like in Microsoft's tokens, or what the provider asserts. */
  email_verified?: boolean;
}

export interface TestIssuer {
  /** The issuer identifier (discovery at `${url}/.well-known/openid-configuration`). */
  url: string;
  clients: Record<Slot, { id: string; secret: string }>;
  /** The person the interaction signs in. */
  user: TestUser;
  /**
   * When true, the provider receives another nonce than the gateway sent (as if the code came from
   * someone else's flow): its ID token then carries a nonce the gateway does not expect.
   */
  tamperNonce: boolean;
  /** Walks the browser's path from the gateway's authorization URL to its callback URL (with code, state, iss). */
  authorize(authorizationUrl: string): Promise<URL>;
  /** Environment for createTestApp pointing both slots here. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

export async function startTestIssuer(gatewayBaseUrl: string): Promise<TestIssuer> {
  const users = new Map<string, TestUser>();
  const clients: Record<Slot, { id: string; secret: string }> = {
    google: { id: 'gw-google', secret: randomBytes(24).toString('base64url') },
    microsoft: { id: 'gw-microsoft', secret: randomBytes(24).toString('base64url') },
  };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  const provider = new Provider(url, {
    clients: (Object.keys(clients) as Slot[]).map((slot) => ({
      client_id: clients[slot].id,
      client_secret: clients[slot].secret,
      redirect_uris: [`${gatewayBaseUrl}/v1/auth/oauth/${slot}/callback`],
      response_types: ['code'],
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Google and Microsoft put the e-mail in the ID token itself, not only at the userinfo endpoint.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, sub: string) => {
      const u = users.get(sub);
      if (!u) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, ...(u.email !== undefined && { email: u.email }), ...(u.email_verified !== undefined && { email_verified: u.email_verified }) }),
      };
    },
  });
  const handle = provider.callback();

  const issuer: TestIssuer = {
    url,
    clients,
    user: { sub: 'nobody' },
    tamperNonce: false,
    authorize: (authorizationUrl) => followToCallback(authorizationUrl, gatewayBaseUrl),
    env: () => ({
      SSO_GOOGLE_ISSUER: url,
      SSO_GOOGLE_CLIENT_ID: clients.google.id,
      SSO_GOOGLE_CLIENT_SECRET: clients.google.secret,
      SSO_MICROSOFT_ISSUER: url,
      SSO_MICROSOFT_CLIENT_ID: clients.microsoft.id,
      SSO_MICROSOFT_CLIENT_SECRET: clients.microsoft.secret,
    }),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };

  server.on('request', (req, res) => {
    const at = new URL(req.url ?? '/', url);
    if (at.pathname.startsWith('/interaction/')) {
      // Login and consent in one step, for whoever the test put in `issuer.user`.
      void (async () => {
        const details = await provider.interactionDetails(req, res);
        const user = { ...issuer.user };
        users.set(user.sub, user);
        const grant = new provider.Grant({ accountId: user.sub, clientId: details.params.client_id });
        grant.addOIDCScope(String(details.params.scope ?? 'openid'));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId: user.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
      })().catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    if (issuer.tamperNonce && at.pathname === '/auth' && at.searchParams.has('nonce')) {
      at.searchParams.set('nonce', randomBytes(16).toString('base64url'));
      req.url = `${at.pathname}${at.search}`;
    }
    handle(req, res);
  });
  return issuer;
}

/**
 * Follows redirects like a browser would, keeping the provider's cookies, until the provider sends
 * the browser back to the gateway: that URL is the callback the gateway receives.
 */
async function followToCallback(authorizationUrl: string, gatewayBaseUrl: string): Promise<URL> {
  const jar = new Map<string, string>();
  let next = new URL(authorizationUrl);
  for (let hop = 0; hop < 10; hop++) {
    if (next.href.startsWith(`${gatewayBaseUrl}/`)) return next;
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(next, { redirect: 'manual', headers: cookie ? { cookie } : {}, signal: AbortSignal.timeout(10_000) });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) {
      throw new Error(`the provider stopped at ${next.pathname} with ${res.status}: ${(await res.text()).slice(0, 500)}`);
    }
    await res.arrayBuffer();
    next = new URL(location, next);
  }
  throw new Error('too many redirects at the provider');
}
