import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { t } from '../i18n/index.js';

export interface Area {
  /** The area's path under /dashboard; its screens route below it. */
  path: string;
  label: string;
  /** Shown in the menu and reachable only when the member's role grants one of these scopes. */
  anyOf: readonly string[];
  element: LazyExoticComponent<ComponentType>;
}

// One lazily loaded chunk per area: the first load carries the shell and the overview only.
export const AREAS: readonly Area[] = [
  { path: '/', label: t.nav.overview, anyOf: [], element: lazy(() => import('./overview/index.js')) },
  { path: '/documents', label: t.nav.documents, anyOf: ['nfce:read', 'nfe:read', 'nfse:read'], element: lazy(() => import('./documents/index.js')) },
  { path: '/issuers', label: t.nav.issuers, anyOf: ['issuers:read'], element: lazy(() => import('./issuers/index.js')) },
  { path: '/developers', label: t.nav.developers, anyOf: ['applications:write', 'webhooks:write'], element: lazy(() => import('./developers/index.js')) },
  { path: '/team', label: t.nav.team, anyOf: ['members:read'], element: lazy(() => import('./team/index.js')) },
  { path: '/billing', label: t.nav.billing, anyOf: ['billing:read', 'billing:write'], element: lazy(() => import('./billing/index.js')) },
  { path: '/notifications', label: t.nav.notifications, anyOf: ['notifications:read'], element: lazy(() => import('./notifications/index.js')) },
  { path: '/exports', label: t.nav.exports, anyOf: ['exports:read', 'exports:write'], element: lazy(() => import('./exports/index.js')) },
  { path: '/audit-log', label: t.nav.auditLog, anyOf: ['audit:read'], element: lazy(() => import('./audit-log/index.js')) },
  { path: '/security', label: t.nav.security, anyOf: [], element: lazy(() => import('./security/index.js')) },
];
