// Preloaded (node --import) into a real gateway process by test/process-guards.test.ts: on SIGUSR2
// the process meets the faults the process guards exist for: an exception thrown from a timer
// callback, one thrown from a zlib callback (as pdfkit's PNG decoder did), and a promise
// rejected with nobody listening. Test code only: nothing in src/ knows about it. Plain JavaScript, so a
// gateway started from dist/ (without tsx) can preload it.
/* global process, setImmediate -- a Node preload; eslint.config.js declares no environment for .mjs files */
import { Buffer } from 'node:buffer';
import { inflate } from 'node:zlib';

process.on('SIGUSR2', () => {
  setImmediate(() => {
    throw new Error('fault-on-signal: thrown from a timer callback');
  });
  inflate(Buffer.from('this is not zlib data'), (err) => {
    if (err) throw err;
  });
  void Promise.reject(new Error('fault-on-signal: rejected with nobody listening'));
});
