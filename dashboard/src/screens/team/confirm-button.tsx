import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { ApiError } from '../../components/api-error.js';
import { t } from '../../i18n/index.js';
import { useAction } from '../../components/use-action.js';

/**
 * A button for an action that cannot be undone: it asks first, in a dialog that names the
 * consequence, and shows the gateway's answer there when the action fails.
 */
export function ConfirmButton({ label, title, question, onConfirm, ...props }: ButtonProps & { label: ReactNode; title: string; question: string; onConfirm: () => Promise<void>; 'aria-label'?: string }) {
  const [open, setOpen] = useState(false);
  const { busy, error, run } = useAction();
  const confirm = () =>
    run(async () => {
      await onConfirm();
      setOpen(false);
    });
  return (
    <>
      <Button {...props} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={title}>
        <Stack>
          <Text size="sm">{question}</Text>
          <ApiError error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              {t.cancel}
            </Button>
            <Button color="red" loading={busy} onClick={() => void confirm()}>
              {t.confirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
