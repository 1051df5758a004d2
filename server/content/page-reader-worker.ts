/** The worker thread of page-reader.ts: reads the page writes it is sent, one at a time. */
import { parentPort } from 'node:worker_threads';
import { readPageWriteHere, type PageWrite } from './page-reader.js';

parentPort!.on('message', ({ id, write }: { id: number; write: PageWrite }) => {
  try {
    parentPort!.postMessage({ id, result: readPageWriteHere(write) });
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message });
  }
});
