// Worker thread entry (signature-check-pool.ts): one document's general signature check per message,
// off the event loop of the process that runs the simulated authority.
import { parentPort } from 'node:worker_threads';
import { generalVerdict } from './signature-check.js';
import type { SignatureCheckJob, SignatureCheckReply } from './signature-check-messages.js';


parentPort!.on('message', (job: SignatureCheckJob) => {
  let reply: SignatureCheckReply;
  try {
    reply = { verdict: generalVerdict(job.xml, job.signedElement) };
  } catch (err) {
    reply = { failed: (err instanceof Error ? err.message : String(err)).slice(0, 500) };
  }
  parentPort!.postMessage(reply);
});
