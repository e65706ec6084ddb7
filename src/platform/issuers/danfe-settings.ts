import { LOGO_MAX_BYTES, LogoBusy, normalizeLogoOffThread, rememberPrintableLogo } from '../../danfe/logo/index.js';
import { ApiError } from '../../kernel/errors.js';
import type { IssuerChanges } from '../../infra/storage/repositories/issuer-repository.js';
import type { RegisteredIssuer } from '../../kernel/issuer.js';
import { updateIssuer } from '../../infra/storage/repositories/issuer-repository.js';
import type { IssuerServiceDeps } from './issuer-deps.js';
import { FieldProblems } from './issuer-validation.js';
import { assertIssuerActive } from './archive-issuer.js';
import { getIssuer } from './manage-issuers.js';

// A thermal receipt prints a small monochrome logo; 256 KiB is generous and keeps issuer records light.
export const DANFE_LOGO_MAX_BYTES = LOGO_MAX_BYTES;
export const DANFE_FOOTER_MAX_CHARS = 200;

export interface DanfeSettingsPatch {
  /** PNG or JPEG as a data URL; null removes the logo. */
  danfeLogo?: string | null;
  /** #RRGGBB; null restores the default. */
  danfePrimaryColor?: string | null;
  danfeFooterText?: string | null;
}

const MAGIC: Record<string, Buffer> = {
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff]),
};

/**
 * Decodes a logo data URL; the declared type must match the file's own signature (magic bytes), and
 * the image is then decoded in full and stored only in normal form (a damaged image or a
 * decompression bomb stored as is crashed or stalled every DANFE of the issuer).
 */
export async function parseLogo(dataUrl: string, problems: FieldProblems): Promise<{ type: string; bytes: Buffer } | null> {
  const m = /^data:(image\/(?:png|jpeg));base64,([A-Za-z0-9+/]+={0,2})$/.exec(dataUrl.trim());
  if (!m) {
    problems.add('danfeLogo', 'must be a PNG or JPEG data URL (data:image/png;base64,...)');
    return null;
  }
  const type = m[1]!;
  const bytes = Buffer.from(m[2]!, 'base64');
  if (bytes.length > DANFE_LOGO_MAX_BYTES) {
    problems.add('danfeLogo', `is ${bytes.length} bytes; the limit is ${DANFE_LOGO_MAX_BYTES} bytes (256 KiB)`);
    return null;
  }
  const magic = MAGIC[type]!;
  if (bytes.length < magic.length || !bytes.subarray(0, magic.length).equals(magic)) {
    problems.add('danfeLogo', `says ${type} but the content is not a ${type === 'image/png' ? 'PNG' : 'JPEG'} image`);
    return null;
  }
  const outcome = await whileLogoThreadsFree(() => normalizeLogoOffThread(bytes));
  if (!outcome.ok) {
    problems.add('danfeLogo', outcome.problem);
    return null;
  }
  rememberPrintableLogo(outcome.logo);
  return { type: outcome.logo.type, bytes: outcome.logo.bytes };
}

export async function updateDanfeSettings(
  deps: Pick<IssuerServiceDeps, 'db' | 'clock'>,
  accountId: string,
  id: string,
  patch: DanfeSettingsPatch,
): Promise<RegisteredIssuer> {
  assertIssuerActive(await getIssuer(deps, accountId, id));
  const problems = new FieldProblems();
  const danfe: NonNullable<IssuerChanges['danfe']> = {};
  if (patch.danfeLogo !== undefined) {
    const logo = patch.danfeLogo === null ? null : await parseLogo(patch.danfeLogo, problems);
    danfe.logo = logo?.bytes ?? null;
    danfe.logo_type = logo?.type ?? null;
  }
  if (patch.danfePrimaryColor !== undefined) {
    const color = patch.danfePrimaryColor?.toUpperCase() ?? null;
    problems.add('danfePrimaryColor', color === null || /^#[0-9A-F]{6}$/.test(color) ? null : 'must be a color as #RRGGBB');
    danfe.primary_color = color;
  }
  if (patch.danfeFooterText !== undefined) {
    const text = patch.danfeFooterText?.trim() || null;
    problems.add('danfeFooterText', text && [...text].length > DANFE_FOOTER_MAX_CHARS ? `must be at most ${DANFE_FOOTER_MAX_CHARS} characters` : null);
    danfe.footer_text = text;
  }
  problems.throwIfAny();
  await updateIssuer(deps.db, accountId, id, { danfe }, deps.clock.now());
  return getIssuer(deps, accountId, id);
}

/** The DANFE renderer's view of an issuer's template settings. */
export function danfeTemplateOf(row: RegisteredIssuer): { logo: { type: string; bytes: Buffer } | null; primaryColor: string | null; footerText: string | null } {
  return {
    logo: row.danfe.logo && row.danfe.logo_type ? { type: row.danfe.logo_type, bytes: row.danfe.logo } : null,
    primaryColor: row.danfe.primary_color,
    footerText: row.danfe.footer_text,
  };
}

/** Runs logo work on the logo threads; when they are all busy with a full queue, a 503 to retry. */
export async function whileLogoThreadsFree<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof LogoBusy) throw new ApiError('service_unavailable', 'Too many logos are being processed right now; try again in a few seconds', undefined, { 'Retry-After': '2' });
    throw err;
  }
}
