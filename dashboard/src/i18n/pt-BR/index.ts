import { auth } from './auth.js';
import { auditLog } from './audit-log.js';
import { billing } from './billing.js';
import { buyerEmail } from './buyer-email.js';
import { common } from './common.js';
import { developers } from './developers.js';
import { exports } from './exports.js';
import { documents } from './documents.js';
import { issuers } from './issuers.js';
import { notifications } from './notifications.js';
import { overview } from './overview.js';
import { security } from './security.js';
import { team } from './team.js';

/**
 * Every word the dashboard shows, in Brazilian Portuguese. One object per area, joined here; an
 * English edition is a second object of the same type (`Strings`) handed to `i18n/index.ts`.
 */
export const ptBR = { ...common, auth, developers, documents, issuers, team, billing, notifications, auditLog, security, overview, buyerEmail, exports };
