import { Stack } from '@mantine/core';
import { Route, Routes } from 'react-router';
import { Page } from '../../components/page.js';
import { t } from '../../i18n/index.js';
import { Passkeys } from './passkeys.js';
import { Sessions } from './sessions.js';
import { SuspendedFactors } from './suspended-factors.js';
import { Totp } from './totp.js';

/** The member's own security (every role): factors a password reset suspended, sessions, TOTP, passkeys. */
function SecurityScreen() {
  return (
    <Page title={t.security.title}>
      <Stack gap="md">
        <SuspendedFactors />
        <Sessions />
        <Totp />
        <Passkeys />
      </Stack>
    </Page>
  );
}

export default function Security() {
  return (
    <Routes>
      <Route index element={<SecurityScreen />} />
    </Routes>
  );
}
