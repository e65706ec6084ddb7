import { useSession } from '../../session.js';
import { FAMILIES, type Family } from './families.js';

/** The families this member's role reads, in menu order. */
export function useReadableFamilies(): Family[] {
  const session = useSession();
  return FAMILIES.filter((f) => session.can(`${f}:read`));
}
