import { Alert, Badge, Button, Group, Stack } from '@mantine/core';
import { api, orThrow } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { t } from '../../i18n/index.js';
import type { Issuer } from './model.js';
import { useIssuerAction } from './use-issuer-action.js';

/** An issuer is never deleted; archived it is read-only and not counted by the plan. */
export function ArchivedBadge({ issuer }: { issuer: Pick<Issuer, 'archived_at'> }) {
  return issuer.archived_at ? <Badge color="gray">{t.issuers.archivedBadge}</Badge> : null;
}

/** "Arquivar" / "Reativar": reactivating past the plan's issuer limit shows the gateway's 409. */
export function ArchiveAction({ issuer, canWrite }: { issuer: Issuer; canWrite: boolean }) {
  const { busy, error, submit } = useIssuerAction();
  const archived = issuer.archived_at !== null;
  const toggle = submit(async () => {
    const params = { params: { path: { id: issuer.id } } };
    await orThrow(archived ? api.POST('/v1/issuers/{id}/unarchive', params) : api.POST('/v1/issuers/{id}/archive', params));
  });
  return (
    <Stack gap="xs">
      {archived && (
        <Alert color="gray" role="status">
          {t.issuers.archivedHint}
        </Alert>
      )}
      {canWrite && (
        <form onSubmit={toggle} noValidate>
          <Group>
            <Button type="submit" variant="default" loading={busy}>
              {archived ? t.issuers.unarchive : t.issuers.archive}
            </Button>
          </Group>
        </form>
      )}
      <ApiError error={error} />
    </Stack>
  );
}
