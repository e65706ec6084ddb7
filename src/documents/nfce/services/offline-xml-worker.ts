// Worker thread entry (offline-xml-pool.ts): one offline NFC-e XML per message, read or checked
// against the XSD, off the event loop.
import { parentPort } from 'node:worker_threads';
import { offlineSchemaOf, readOfflineXml, type OfflineSchemaVerdict, type OfflineXmlReading } from './offline-xml-reading.js';

export type OfflineXmlJob = { kind: 'read'; xml: string; verify?: boolean } | { kind: 'schema'; xml: string };
export type OfflineXmlReply = { read: OfflineXmlReading } | { schema: OfflineSchemaVerdict } | { failed: string };

parentPort!.on('message', (job: OfflineXmlJob) => {
  let reply: OfflineXmlReply;
  try {
    reply = job.kind === 'read' ? { read: readOfflineXml(job.xml, { verify: job.verify ?? true }) } : { schema: offlineSchemaOf(job.xml) };
  } catch (err) {
    reply = { failed: (err instanceof Error ? err.message : String(err)).slice(0, 500) };
  }
  parentPort!.postMessage(reply);
});
