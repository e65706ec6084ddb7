import { auth } from './auth.js';
import { common } from './common.js';
import { developers } from './developers.js';
import { documents } from './documents.js';
import { issuers } from './issuers.js';

/**
 * Every word the dashboard shows, in Brazilian Portuguese. One object per area, joined here; an
 * English edition is a second object of the same type (`Strings`) handed to `i18n/index.ts`.
 */
export const ptBR = { ...common, auth, developers, documents, issuers };
