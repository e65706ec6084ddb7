import { lazy, type ReactNode } from 'react';

const SignIn = lazy(() => import('./sign-in.js'));
const SignUp = lazy(() => import('./sign-up.js'));
const VerifyEmail = lazy(() => import('./verify-email.js'));
const AcceptInvite = lazy(() => import('./accept-invite.js'));
const ForgotPassword = lazy(() => import('./reset-password.js').then((m) => ({ default: m.ForgotPassword })));
const ResetPassword = lazy(() => import('./reset-password.js').then((m) => ({ default: m.ResetPassword })));

/** Pages that work signed out; the e-mail links (DASHBOARD_URL + path) land on three of them. */
export const PUBLIC_ROUTES: ReadonlyArray<{ path: string; element: ReactNode }> = [
  { path: '/sign-in', element: <SignIn /> },
  { path: '/sign-up', element: <SignUp /> },
  { path: '/verify-email', element: <VerifyEmail /> },
  { path: '/accept-invite', element: <AcceptInvite /> },
  { path: '/forgot-password', element: <ForgotPassword /> },
  { path: '/reset-password', element: <ResetPassword /> },
];
