// The dashboard is at /dashboard (src/http/dashboard.ts); on the default loopback address it is named
// localhost: browsers refuse passkeys on an IP address (WebAuthn L3 §5.1.3).
export function defaultDashboardUrl(env: NodeJS.ProcessEnv, publicBaseUrl: string): string {
  const u = new URL(publicBaseUrl);
  if (!env.PUBLIC_BASE_URL?.trim() && (u.hostname === '127.0.0.1' || u.hostname === '[::1]')) u.hostname = 'localhost';
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}/dashboard`;
}
