// Worker thread entry (offline-xml-pool.ts): reads one offline NFC-e XML per message, off the event loop.
import { parentPort } from 'node:worker_threads';
import { readOfflineXml, type OfflineXmlReading } from './offline-xml-reading.js';

export type OfflineXmlReply = { read: OfflineXmlReading } | { failed: string };

parentPort!.on('message', (xml: string) => {
  let reply: OfflineXmlReply;
  try {
    reply = { read: readOfflineXml(xml) };
  } catch (err) {
    reply = { failed: (err instanceof Error ? err.message : String(err)).slice(0, 500) };
  }
  parentPort!.postMessage(reply);
});
