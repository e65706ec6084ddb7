import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useAction } from '../../components/use-action.js';
import { fieldErrors } from './model.js';

/**
 * A form of the issuer's page: busy while its call runs, the gateway's error (and its field
 * errors by name), `done` once it succeeded; the issuer queries are then read again.
 */
export function useIssuerAction() {
  const client = useQueryClient();
  const { busy, error, run } = useAction();
  const [done, setDone] = useState(false);
  const submit = (work: () => Promise<void>) => (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    void run(async () => {
      await work();
      setDone(true);
      await client.invalidateQueries({ queryKey: ['issuers'] });
    });
  };
  return { busy, error, errors: fieldErrors(error), done, submit };
}
