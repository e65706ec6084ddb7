import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import { scopeCovers } from '../../src/infra/identity/scopes.js';
import { api, type paths } from './api/client.js';

type Me = paths['/v1/auth/session']['get']['responses'][200]['content']['application/json'];
type Account = paths['/v1/account']['get']['responses'][200]['content']['application/json'];

export interface Session {
  me: Me;
  account: Account | null;
  /** The role matrix (src/infra/identity/roles.ts), as GET /v1/auth/session lists it for this member. */
  can(scope: string): boolean;
  reload(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

/** The signed-in member, or null while signed out (GET /v1/auth/session answers 401). */
export function useSessionQuery() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      const { data, error } = await api.GET('/v1/auth/session');
      if (error?.status === 401) return null;
      if (error) throw error;
      // An unverified member reaches GET /v1/account too (the auth routes, account and sandbox mail).
      const account = await api.GET('/v1/account');
      if (account.error?.status === 429) throw account.error; // said with its wait, not taken for "no account"
      return { me: data, account: account.data ?? null };
    },
    staleTime: 60_000,
  });
}

export function SessionProvider({ value, children }: { value: { me: Me; account: Account | null }; children: ReactNode }) {
  const client = useQueryClient();
  const session: Session = {
    ...value,
    // The gateway's own rule (a :write scope covers its :read), so the screens and the API agree.
    can: (scope) => scopeCovers(value.me.scopes, scope),
    reload: () => client.invalidateQueries({ queryKey: ['session'] }),
  };
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}
