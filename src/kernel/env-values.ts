// Reading one environment variable as a typed value, or failing at start-up with a message that names
// it (config.ts). Pure: no project imports.

/** A setting the process cannot start with; the message names the variable. */
export class ConfigError extends Error {}

export function int(env: NodeJS.ProcessEnv, name: string, dflt: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}; got "${raw}"`);
  }
  return n;
}

/** "min-max" in milliseconds, or one number for a fixed value. */
export function range(env: NodeJS.ProcessEnv, name: string, dflt: [number, number]): [number, number] {
  const raw = env[name]?.trim();
  if (!raw) return dflt;
  const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(raw);
  const lo = m ? Number(m[1]) : NaN;
  const hi = m?.[2] !== undefined ? Number(m[2]) : lo;
  if (!m || hi < lo || hi > 120_000) throw new ConfigError(`${name} must be "min-max" milliseconds (e.g. 1000-3000) or one number; got "${raw}"`);
  return [lo, hi];
}

export function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], dflt: T): T {
  const raw = env[name]?.trim();
  if (!raw) return dflt;
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${values.join(', ')}; got "${raw}"`);
  }
  return raw as T;
}

export function url(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => p + '//').join(' or ')}`);
  }
  return raw;
}
