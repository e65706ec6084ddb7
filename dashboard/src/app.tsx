import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { whenSignedOut } from './api/client.js';
import { Loaded } from './components/page.js';
import { StepUpProvider } from './components/step-up.js';
import { Shell } from './layout/shell.js';
import { PUBLIC_ROUTES } from './screens/auth/routes.js';
import { AREAS } from './screens/registry.js';
import { NotFound } from './screens/not-found.js';
import { SessionProvider, useSessionQuery } from './session.js';

export function App() {
  const query = useSessionQuery();
  const client = useQueryClient();
  const location = useLocation();
  useEffect(() => whenSignedOut(() => void client.setQueryData(['session'], null)), [client]);
  // Pages reached from an e-mail link or before signing in work signed out as well.
  const publicRoute = PUBLIC_ROUTES.find((r) => location.pathname === r.path || location.pathname.startsWith(`${r.path}/`));
  if (publicRoute) return <Suspense>{publicRoute.element}</Suspense>;
  return (
    <Loaded query={query}>
      {(signedIn) =>
        signedIn === null ? (
          <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />
        ) : !signedIn.me.user.email_verified ? (
          <Navigate to="/verify-email" replace />
        ) : (
          <SessionProvider value={signedIn}>
            <StepUpProvider>
              <Shell>
                <Routes>
                  {AREAS.map((a) => (
                    <Route key={a.path} path={a.path === '/' ? '/' : `${a.path}/*`} element={<a.element />} />
                  ))}
                  <Route path="*" element={<NotFound />} />
                </Routes>
              </Shell>
            </StepUpProvider>
          </SessionProvider>
        )
      }
    </Loaded>
  );
}
