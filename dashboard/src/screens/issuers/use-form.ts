import { useRef, useState } from 'react';
import { idempotencyKey } from '../../api/client.js';

/**
 * A form's values with the Idempotency-Key of its submission: the same key while the values stay
 * the same (a double click or a retry is done once by the gateway), a new one after any change.
 */
export function useKeyedForm<T extends object>(initial: T) {
  const [values, setValues] = useState(initial);
  const key = useRef(idempotencyKey());
  const set = <K extends keyof T>(k: K, v: T[K]) => {
    key.current = idempotencyKey();
    setValues((old) => ({ ...old, [k]: v }));
  };
  /** Props of a text input bound to `k`. */
  const text = (k: { [K in keyof T]: T[K] extends string ? K : never }[keyof T]) => ({
    value: values[k] as string,
    onChange: (e: { currentTarget: { value: string } }) => set(k, e.currentTarget.value as T[typeof k]),
  });
  const reset = (next: T) => {
    key.current = idempotencyKey();
    setValues(next);
  };
  return { values, set, text, reset, idempotencyKey: () => key.current };
}
