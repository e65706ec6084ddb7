import { Button, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, orThrow } from '../../api/client.js';
import { t } from '../../i18n/index.js';

const NAMES: Record<string, string> = { google: 'Google', microsoft: 'Microsoft' };

/** A button per single sign-on provider the gateway has configured (GET /v1/auth/methods). */
export function SsoButtons({ next }: { next: string }) {
  const methods = useQuery({ queryKey: ['sign-in-methods'], queryFn: () => orThrow(api.GET('/v1/auth/methods')), staleTime: Infinity });
  if (!methods.data?.sso.length) return null;
  return (
    <Stack gap="xs">
      {methods.data.sso.map((p) => (
        // A full page load: the gateway answers 302 to the provider and back to the dashboard.
        <Button key={p.provider} component="a" variant="default" href={`${p.start_url}?return_to=${encodeURIComponent(next)}`}>
          {t.auth.signInWith(NAMES[p.provider] ?? p.provider)}
        </Button>
      ))}
    </Stack>
  );
}
