// A setup file of every vitest project (vitest.config.ts): vitest runs it before each test file, so
// the hook below is the file's last afterAll (hooks run last-registered first), after the file's own
// have closed its runtimes: then the file's simulator and database go (test/support/db.ts).
import { afterAll } from 'vitest';
import { endFile } from './db.js';

afterAll(endFile);
