import { countTrustedDeviceTry, uncountTrustedDeviceTry, type TrustedDevice } from './device-cookie.js';
import { checkLoginThrottle, clearEmailFailures, recordLoginFailure, throttleKeys } from './login-throttle.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';

/** Which counts a password try is held by and goes to. */
export interface PasswordTry {
  keys: string[];
  device: TrustedDevice | null;
}

/**
 * Before a password is checked (sign-in, step-up). A browser with a live device cookie of this
 * e-mail's user is held by its address and by its own count only: the per-e-mail delay, which
 * anyone can keep running, does not hold it (OWASP's device cookie). Any other client is held by the
 * e-mail and the address as before. Throws rate_limited while one of them says wait.
 */
export async function startPasswordTry(deps: PeopleDeps, email: string, meta: RequestMeta): Promise<PasswordTry> {
  const device = await countTrustedDeviceTry(deps, meta.deviceToken, email);
  const keys = device ? throttleKeys(email, meta.ip).filter((k) => !k.startsWith('email:')) : throttleKeys(email, meta.ip);
  try {
    await checkLoginThrottle(deps.db, keys, deps.clock.now(), deps.config.people.loginIpFreeFailures);
  } catch (err) {
    await uncountTrustedDeviceTry(deps, device); // held, not checked
    throw err;
  }
  return { keys, device };
}

/** A wrong password: the address (and the e-mail, without a device) count it; the device counted it already. */
export async function passwordTryFailed(deps: PeopleDeps, tried: PasswordTry): Promise<void> {
  if (tried.keys.length) await recordLoginFailure(deps.db, tried.keys, deps.clock.now());
}

/**
 * The right password. Without a device the e-mail's count is cleared, as before. With one it is not:
 * the user's success must not give an attacker who keeps the e-mail delayed five free tries again.
 */
export async function passwordTrySucceeded(deps: PeopleDeps, tried: PasswordTry, email: string): Promise<void> {
  if (tried.device) await uncountTrustedDeviceTry(deps, tried.device);
  else await clearEmailFailures(deps.db, email);
}
