import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply } from 'fastify';

/**
 * The browser's session. `__Host-` makes the browser refuse the cookie unless it
 * is Secure, host-only and Path=/ (no subdomain can plant or read it); HttpOnly keeps it from
 * scripts; SameSite=Lax keeps it off cross-site subrequests and form posts. Browsers treat
 * http://localhost and 127.0.0.1 as secure contexts, so Secure works on loopback too.
 */
export const SESSION_COOKIE = '__Host-session';
export const REFRESH_COOKIE = '__Host-refresh';

// Cookie headers beyond this are not read (a session cookie is about 50 bytes).
const MAX_COOKIE_HEADER = 8192;

/** A cookie's value; beyond `maxLength` (a session token is about 50 characters) it is ignored. */
export function readCookie(header: string | undefined, name: string, maxLength = 200): string | undefined {
  if (!header || header.length > MAX_COOKIE_HEADER) return undefined;
  const value = parseCookie(header)[name];
  return value && value.length <= maxLength ? value : undefined;
}

export function setSessionCookies(reply: FastifyReply, tokens: { session_token: string; refresh_token: string }, maxAgeSeconds: number): void {
  reply.header('Set-Cookie', [
    stringifySetCookie({ name: SESSION_COOKIE, value: tokens.session_token, path: '/', httpOnly: true, secure: true, sameSite: 'lax', maxAge: maxAgeSeconds }),
    stringifySetCookie({ name: REFRESH_COOKIE, value: tokens.refresh_token, path: '/', httpOnly: true, secure: true, sameSite: 'strict', maxAge: maxAgeSeconds }),
  ]);
}

export function clearSessionCookies(reply: FastifyReply): void {
  reply.header('Set-Cookie', [SESSION_COOKIE, REFRESH_COOKIE].map((name) => stringifySetCookie({ name, value: '', path: '/', httpOnly: true, secure: true, sameSite: 'lax', maxAge: 0 })));
}
