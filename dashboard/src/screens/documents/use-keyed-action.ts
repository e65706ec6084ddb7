import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { idempotencyKey } from '../../api/client.js';
import { useStepUp } from '../../components/step-up.js';
import type { AnyRecord, Family } from './families.js';
import { noteKey } from './use-notes.js';

/**
 * A form's call on a note: one Idempotency-Key per submission attempt (kept across a double click or
 * a retry of the same input, renewed when the input changes), a step-up when the gateway asks for
 * one, and the note the API answered put in place of the cached one (the lists are asked again).
 */
export function useNoteAction(family: Family, id: string) {
  const client = useQueryClient();
  const stepUp = useStepUp();
  const key = useRef(idempotencyKey());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const renewKey = () => {
    key.current = idempotencyKey();
  };
  const run = async (call: (idempotencyKey: string) => Promise<AnyRecord>): Promise<AnyRecord | null> => {
    setBusy(true);
    setError(null);
    try {
      const note = await stepUp(() => call(key.current));
      client.setQueryData(noteKey(family, id), note);
      await client.invalidateQueries({ queryKey: ['documents', family, 'list'] });
      renewKey();
      return note;
    } catch (e) {
      setError(e);
      return null;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, renewKey };
}
