/**
 * Reads a page write (content/read.ts) and cuts it into sections (search/sections.ts) off
 * the event loop when it is large: a page of a few megabytes takes a few hundred
 * milliseconds to read, and the server must keep answering meanwhile (`/healthz`, other
 * visitors). Small pages are read in place, where a thread hop would cost more than the work.
 *
 * One worker thread serves the whole process, one page at a time in order; it holds the
 * process open only while it has work. If it cannot start or dies, pages are read in place.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PageFormat } from '../../wire/contract.js';
import { pageSections, type Section } from '../search/sections.js';
import { pageTitle, readPage, type PageReading } from './read.js';

export interface PageWrite {
  format: PageFormat;
  content: string;
  /** The write body's title, if it has one. */
  title?: string;
  /** The title to keep when the write gives none (a patch of the content only). */
  keptTitle?: string;
  url?: string;
}

export interface ReadPageWrite {
  reading: PageReading;
  /** The title the page is stored with (read.ts `pageTitle`). */
  title: string;
  /** The page's sections, as the indexer would cut them. */
  sections: Section[];
}

/** Pages at least this long (in UTF-16 units) are read on the worker thread. */
export const OFF_THREAD_CHARS = 64 * 1024;

/** Reads a page write and cuts it into sections, in this thread. */
export function readPageWriteHere(write: PageWrite): ReadPageWrite {
  const reading = readPage(write.format, write.content);
  const title = write.title === undefined && write.keptTitle !== undefined ? write.keptTitle : pageTitle(write, reading);
  return { reading, title, sections: pageSections(reading.content, title, write.format) };
}

interface Pending {
  resolve(result: ReadPageWrite): void;
  reject(error: Error): void;
}

let worker: Worker | undefined;
let workerFailed = false;
let nextRequest = 0;
const pending = new Map<number, Pending>();

function readerWorker(): Worker | undefined {
  if (worker || workerFailed) return worker;
  try {
    // The worker's file sits beside this one, as .js once built and as .ts under tsx, whose
    // loader a worker on Node 20 does not inherit: there the worker loads it through tsx's API.
    const extension = extname(fileURLToPath(import.meta.url));
    const url = new URL(`./page-reader-worker${extension}`, import.meta.url);
    const started =
      extension === '.ts'
        ? new Worker(`import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(import.meta.url)}))`, { eval: true })
        : new Worker(url);
    started.unref();
    started.on('message', ({ id, result, error }: { id: number; result?: ReadPageWrite; error?: string }) => {
      const waiting = pending.get(id);
      if (!waiting) return;
      pending.delete(id);
      if (pending.size === 0) started.unref();
      if (error !== undefined) waiting.reject(new Error(error));
      else waiting.resolve(result!);
    });
    const fail = (error: Error) => {
      if (worker === started) worker = undefined;
      workerFailed = true;
      const failed = [...pending.values()];
      pending.clear();
      for (const waiting of failed) waiting.reject(error);
    };
    started.on('error', fail);
    started.on('exit', (code) => fail(new Error(`the page reader stopped (exit code ${code})`)));
    worker = started;
  } catch {
    workerFailed = true;
  }
  return worker;
}

/** Reads a page write and cuts it into sections; off the event loop when it is large. */
export async function readPageWrite(write: PageWrite): Promise<ReadPageWrite> {
  const thread = write.content.length >= OFF_THREAD_CHARS ? readerWorker() : undefined;
  if (!thread) return readPageWriteHere(write);
  const id = nextRequest++;
  try {
    return await new Promise<ReadPageWrite>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      if (pending.size === 1) thread.ref();
      thread.postMessage({ id, write });
    });
  } catch (error) {
    // The worker died (its own failure, not the page's): read the page here instead.
    if (workerFailed) return readPageWriteHere(write);
    throw error;
  }
}
