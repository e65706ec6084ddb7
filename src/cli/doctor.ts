// `npm run doctor -- --issuer iss_...`: asks a running gateway for an issuer's
// diagnostics (GET /v1/issuers/:id/diagnostics) and prints each check with its verdict and what to do.
// Over HTTP, so it works against the local sandbox as against a deployed gateway, with the caller's
// own key and rights. Exit status: 0 ok or warnings, 1 a check failed, 2 the question could not be asked.

export interface DoctorOptions {
  issuer: string;
  url: string;
  key: string;
  lang: 'pt-BR' | 'en';
}

interface Check { id: string; verdict: 'pass' | 'warn' | 'fail' | 'skip'; rule: string | null; message: string; action: string | null }
interface Report { issuer_id: string; environment: string; checked_at: string; verdict: 'ok' | 'warning' | 'failing'; checks: Check[] }

const MARK = { pass: 'ok  ', warn: 'WARN', fail: 'FAIL', skip: '--  ' } as const;
const VERDICT = {
  'pt-BR': { ok: 'tudo certo', warning: 'atenção', failing: 'com falhas' },
  en: { ok: 'all good', warning: 'warnings', failing: 'failing' },
} as const;

/** The report as lines of text (no colours: it is read in terminals and CI logs alike). */
export function formatReport(r: Report, lang: DoctorOptions['lang']): string[] {
  const head = lang === 'en' ? `Issuer ${r.issuer_id} (${r.environment}), checked at ${r.checked_at}` : `Emissor ${r.issuer_id} (${r.environment}), verificado em ${r.checked_at}`;
  const lines = [head, ''];
  for (const c of r.checks) {
    lines.push(`  ${MARK[c.verdict]}  ${c.id}${c.rule ? ` (${c.rule})` : ''}: ${c.message}`);
    if (c.action && c.verdict !== 'pass') lines.push(`        -> ${c.action}`);
  }
  lines.push('', `${lang === 'en' ? 'Verdict' : 'Resultado'}: ${VERDICT[lang][r.verdict]} (${r.verdict})`);
  return lines;
}

export async function runDoctor(o: DoctorOptions, print: (line: string) => void): Promise<number> {
  let res: Response;
  try {
    res = await fetch(new URL(`/v1/issuers/${encodeURIComponent(o.issuer)}/diagnostics`, o.url), {
      headers: { authorization: `Bearer ${o.key}`, 'accept-language': o.lang },
      signal: AbortSignal.timeout(60_000),
    });
  } catch (err) {
    print(`${o.lang === 'en' ? 'No gateway answered at' : 'Nenhum gateway respondeu em'} ${o.url}: ${(err as Error).message}`);
    return 2;
  }
  const body = (await res.json().catch(() => null)) as (Report & { error?: string; message?: string }) | null;
  if (!res.ok || !body || !Array.isArray(body.checks)) {
    print(`${res.status} ${body?.error ?? ''} ${body?.message ?? ''}`.trim());
    return 2;
  }
  for (const line of formatReport(body, o.lang)) print(line);
  return body.verdict === 'failing' ? 1 : 0;
}
