/**
 * One process at a time on an embedded database directory: two PGlite instances on one
 * directory both accept writes and lose them. The process that opens it holds
 * `assist.lock` there, created exclusively and holding its pid and a token of its own; it
 * is removed when the process closes the database or exits. A lock whose pid no longer runs
 * was left by a process that died (SIGKILL, power loss) and is taken over.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync, closeSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const LOCK_FILE = 'assist.lock';

/** The directory is held by another running process. */
export class DataDirectoryInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the database in ${dataDir} is in use by another process (pid ${pid}, a running server or command). ` +
        'Two processes on one embedded database lose data: stop the server (or command) that holds it first, use the running ' +
        `server's admin API, or give this one another --data directory. If no such process runs, delete ${join(dataDir, LOCK_FILE)}.`,
    );
  }
}

/**
 * The directory was removed, or removed and made again (by another server's start), while
 * this process had it open. Its database is no longer on disk, and the files it would
 * still write (a checkpoint on close, its control file) would land in the directory now at
 * that path, another database's, and leave that one unreadable.
 */
export class DataDirectoryReplaced extends Error {
  constructor(readonly dataDir: string) {
    super(
      `the data directory ${resolve(dataDir)} was removed or replaced while this process had it open. ` +
        'Its database is gone with it; nothing more was written there, so that the directory now at that path (another ' +
        'server may be using it) stays readable.',
    );
  }
}

export interface DataDirectoryLock {
  readonly dataDir: string;
  /**
   * Whether the lock file this process made is still there, as it wrote it: false once the
   * directory was removed or replaced under the process. A lock file deleted on its own (the
   * directory and its database still the ones opened) is made again.
   */
  held(): boolean;
  /** Removes the lock file if it is still this process's (idempotent). */
  release(): void;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid on the lock file's first line. */
function lockHolder(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').split('\n')[0]!.trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the lock of `dataDir` or throws DataDirectoryInUse; a stale lock (its pid gone) is taken over. */
export function lockDataDirectory(dataDir: string): DataDirectoryLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  // The pid says who holds it; the token, which pids cannot (two containers' servers are both pid 1), that it is this one.
  const content = `${process.pid}\n${randomUUID()}\n`;
  const create = () => {
    const fd = openSync(path, 'wx', 0o644);
    try {
      writeSync(fd, content);
    } finally {
      closeSync(fd);
    }
  };
  for (let attempt = 0; ; attempt++) {
    try {
      create();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolder(path);
      // A lock holding this process's own pid was left by an earlier process that had it (a restarted container's pid 1).
      if (holder !== undefined && holder !== process.pid && running(holder)) throw new DataDirectoryInUse(dataDir, holder);
      // Another process took the stale lock over between our two attempts.
      if (attempt > 0) throw new DataDirectoryInUse(dataDir, holder ?? 0);
      unlinkSync(path);
    }
  }
  const directory = statSync(dataDir);
  /** The lock file's text, or why it could not be read. */
  const read = (): string | NodeJS.ErrnoException => {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      return error as NodeJS.ErrnoException;
    }
  };
  const ours = () => read() === content;
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    if (ours()) unlinkSync(path);
  };
  // However the process ends (an uncaught error, process.exit), the lock goes with it.
  process.on('exit', release);
  const stillHeld = (): boolean => {
    const text = read();
    if (typeof text === 'string') return text === content;
    // Out of file handles, or a network file system's hiccup: nothing says it is lost; it is checked again.
    if (text.code !== 'ENOENT' && text.code !== 'ENOTDIR') return true;
    // Only the lock file went (by hand, or a clean-up of old files): the directory is the one opened and still holds its database.
    try {
      const now = statSync(dataDir);
      if (now.ino !== directory.ino || now.dev !== directory.dev || !existsSync(join(dataDir, 'PG_VERSION'))) return false;
      create();
      return true;
    } catch {
      return false;
    }
  };
  return { dataDir, held: () => held && stillHeld(), release };
}

/**
 * Closes the database of a locked directory and releases the lock. When the directory was
 * removed or replaced meanwhile, the database is left unclosed (closing writes a checkpoint
 * by path, into whatever directory is there now) and DataDirectoryReplaced is thrown.
 */
export async function closeLockedDatabase(db: { close(): Promise<void> }, lock: DataDirectoryLock | undefined): Promise<void> {
  if (lock && !lock.held()) throw new DataDirectoryReplaced(lock.dataDir);
  try {
    await db.close();
  } finally {
    lock?.release();
  }
}
