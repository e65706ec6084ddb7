import { resetWorkerForNextFile } from './file-isolation.js';

// vitest.config.ts `setupFiles`: runs in the worker before each test file.
await resetWorkerForNextFile();
