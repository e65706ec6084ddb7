export { LOGO_MAX_BYTES, LOGO_MAX_PIXELS, LOGO_MAX_SIDE } from './logo-limits.js';
export { LogoBusy, normalizeLogoOffThread, type LogoOutcome } from './logo-pool.js';
export { LogoRefusal } from './logo-refusal.js';
export type { LogoImage } from './normalize-logo.js';
export { printableLogo, rememberPrintableLogo } from './printable-logo.js';
