import { stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_LIFETIME_SECONDS, issueDeviceToken } from '../platform/people/device-cookie.js';
import type { PeopleDeps } from '../platform/people/people-deps.js';
import { readCookie } from './session-cookie.js';

/**
 * The browser's device cookie (platform/people/device-cookie.ts), set at each
 * completed sign-in. Like the session cookie: `__Host-` (Secure, host-only, Path=/) and HttpOnly;
 * SameSite=Strict because only the dashboard's own sign-in and step-up forms need it (a cross-site
 * page cannot make a request that is exempt from the per-e-mail delay).
 */
export const DEVICE_COOKIE = '__Host-device';

export function presentedDevice(request: FastifyRequest): string | undefined {
  return readCookie(request.headers.cookie, DEVICE_COOKIE);
}

/** After a session was issued to `userId`: a new device cookie (the presented one is spent). */
export async function setDeviceCookie(deps: Pick<PeopleDeps, 'db' | 'clock'>, request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
  const token = await issueDeviceToken(deps, userId, presentedDevice(request));
  reply.header('Set-Cookie', stringifySetCookie({ name: DEVICE_COOKIE, value: token, path: '/', httpOnly: true, secure: true, sameSite: 'strict', maxAge: DEVICE_LIFETIME_SECONDS }));
}
