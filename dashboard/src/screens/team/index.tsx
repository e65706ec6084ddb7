import { Stack, Title } from '@mantine/core';
import { Route, Routes } from 'react-router';
import { Page } from '../../components/page.js';
import { t } from '../../i18n/index.js';
import { Invites } from './invites.js';
import { MembersTable } from './members.js';
import { Ownership } from './ownership.js';

/** Team and roles: members and their roles, invites, leaving and ownership. */
function TeamScreen() {
  return (
    <Page title={t.team.title}>
      <Stack gap="md">
        <Title order={2} size="h3">
          {t.team.members}
        </Title>
        <MembersTable />
        <Invites />
        <Ownership />
      </Stack>
    </Page>
  );
}

export default function Team() {
  return (
    <Routes>
      <Route index element={<TeamScreen />} />
    </Routes>
  );
}
