// Last line of defence of a serving process: an exception thrown in a callback (a zlib or
// stream callback of some library) or a promise rejected with nobody listening would end the API,
// the worker and the simulator together, and a stored input that triggers it would end them again
// after every restart. The entry points (serve, authority-sim) install these guards once they are
// up: the fault is logged (pino, no secrets: type, message, code and stack only) and counted
// (/healthz/deep shows the counts), and the process keeps serving. Libraries and tests never
// install them, so a fault there still fails loudly. Startup failures happen before the guards.
import type { Logger } from 'pino';

export interface ProcessFaults {
  uncaught_exceptions: number;
  unhandled_rejections: number;
}

const faults: ProcessFaults = { uncaught_exceptions: 0, unhandled_rejections: 0 };
let installed = false;

/** How many faults the guards caught since the process started (all zero without guards). */
export function processFaults(): ProcessFaults {
  return { ...faults };
}

function describe(reason: unknown): Record<string, unknown> {
  if (!(reason instanceof Error)) return { type: typeof reason, message: String(reason).slice(0, 500) };
  const code = (reason as NodeJS.ErrnoException).code;
  return { type: reason.name, message: reason.message.slice(0, 500), ...(code ? { code } : {}), stack: reason.stack?.slice(0, 4000) };
}

export function installProcessGuards(log: Logger): void {
  if (installed) return;
  installed = true;
  process.on('uncaughtException', (err, origin) => {
    faults.uncaught_exceptions++;
    log.error({ fault: 'uncaughtException', origin, error: describe(err), count: faults.uncaught_exceptions }, 'uncaught exception caught by the process guard; still serving');
  });
  process.on('unhandledRejection', (reason) => {
    faults.unhandled_rejections++;
    log.error({ fault: 'unhandledRejection', error: describe(reason), count: faults.unhandled_rejections }, 'unhandled promise rejection caught by the process guard; still serving');
  });
}
