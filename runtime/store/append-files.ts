// Appends to many files through held-open handles: a bounded LRU of `O_APPEND` handles, so an
// append is one write (plus one fsync with `fsync`) instead of open + write + close, each a
// thread-pool round trip. Per file, appends keep call order; text handed in while a write is on
// disk goes out together in the next single write (each caller resolves once its bytes are
// written, and synced with `fsync`).
//
// Without fsync, a write to an open handle is a synchronous write(2) (`syncWrites`, the default
// then): it only copies the bytes into the page cache (~2 µs of CPU for a message line here,
// against ~30 µs for the same write through the thread pool and its promise, and ~100 µs for
// open + write + close), which is what Node itself does for stdout redirected to a file. The
// cost: the event loop waits for that write(2), which the kernel can stall when it throttles a
// process that dirties pages faster than the disk takes them. Opening a file stays asynchronous,
// and so does every write with `fsync` (a disk flush must not block the loop).
//
// Failures leave no torn line behind: a write that fails (or writes short and then fails) is cut
// back to the file's length before it (ftruncate), its callers reject, and the handle is closed;
// the next append opens the file again. When a handle is opened, a last line without its "\n"
// (a crash) is trimmed before anything is appended after it: on every open with `trimOnOpen`
// (the default), else only for a file whose cut-back failed (the task store reads, and so trims,
// a log before its first append, so it opens with one `open` and no reads).
//
// The pool owns its files: a file renamed or deleted behind its back while its handle is open
// keeps receiving appends at its old inode until the handle is released (LRU eviction,
// `release(file)`, `close()`).
import { fstatSync, ftruncateSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

export interface AppendFiles {
  /** Appends `text` to `file` (created if absent); resolves once written (and synced with `fsync`). */
  append(file: string, text: string): Promise<void>;
  /** Closes `file`'s handle once its queued appends are done (the next append opens it again). */
  release(file: string): Promise<void>;
  /** Waits for every queued append and closes every handle; later appends reject. */
  close(): Promise<void>;
  /** Handles open right now (at most `capacity` between writes). */
  readonly openHandles: number;
}

export interface AppendFilesOptions {
  /** How many handles to keep open; the least recently used idle one is closed past it. Default 256. */
  capacity?: number;
  /** fsync after each write before resolving. */
  fsync?: boolean;
  /** Check (and trim) a torn last line on every open; default true. false: only after a failed cut-back. */
  trimOnOpen?: boolean;
  /** Write to an open handle with a synchronous write(2) (see above); default `!fsync`, never with fsync. */
  syncWrites?: boolean;
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

interface Writer {
  file: string;
  handle: FileHandle | null;
  queue: string[];
  waiters: Waiter[];
  running: Promise<void> | null;
  /** Close the handle once the running write is done (evicted or released meanwhile). */
  closeAfter: boolean;
}

const TAIL_CHUNK = 64 * 1024;

/** Trims a last line without its "\n" (returns the length kept). */
async function trimTornTail(handle: FileHandle, size: number): Promise<number> {
  if (size === 0) return 0;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] === 0x0a) return size;
  let end = size;
  const chunk = Buffer.alloc(TAIL_CHUNK);
  while (end > 0) {
    const start = Math.max(0, end - TAIL_CHUNK);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const at = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (at >= 0) {
      await handle.truncate(start + at + 1);
      return start + at + 1;
    }
    end = start;
  }
  await handle.truncate(0);
  return 0;
}

/**
 * Writes all of `bytes` (and fsyncs with `sync`). On failure, cuts the file back by what of them
 * landed (this pool is the file's only writer and appends with O_APPEND, so those are its last
 * bytes), calls `cutFailed` if that cut fails too, and rethrows.
 */
async function writeAll(handle: FileHandle, bytes: Buffer, sync: boolean, cutFailed: () => void): Promise<void> {
  let offset = 0;
  try {
    while (offset < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
      if (bytesWritten <= 0) throw Object.assign(new Error('short write'), { code: 'EIO' });
      offset += bytesWritten;
    }
    if (sync) await handle.sync();
  } catch (error) {
    if (offset > 0)
      await handle
        .stat()
        .then(({ size }) => handle.truncate(size - offset))
        .catch(cutFailed);
    throw error;
  }
}

/** writeAll's synchronous twin (for `syncWrites`). */
function writeAllSync(fd: number, bytes: Buffer, cutFailed: () => void): void {
  let offset = 0;
  try {
    while (offset < bytes.length) {
      const written = writeSync(fd, bytes, offset, bytes.length - offset);
      if (written <= 0) throw Object.assign(new Error('short write'), { code: 'EIO' });
      offset += written;
    }
  } catch (error) {
    if (offset > 0) {
      try {
        ftruncateSync(fd, fstatSync(fd).size - offset);
      } catch {
        cutFailed();
      }
    }
    throw error;
  }
}

export function createAppendFiles({
  capacity = 256,
  fsync = false,
  trimOnOpen = true,
  syncWrites = !fsync,
}: AppendFilesOptions = {}): AppendFiles {
  if (!Number.isInteger(capacity) || capacity < 1)
    throw new RangeError('createAppendFiles: capacity must be a positive integer');
  const writeSyncMode = syncWrites && !fsync;
  // Insertion order is recency: a used writer is re-inserted at the end.
  const writers = new Map<string, Writer>();
  let openHandles = 0;
  let closed = false;
  /** Files whose failed write could not be cut back: trimmed on their next open. */
  const suspect = new Set<string>();

  async function closeHandle(writer: Writer): Promise<void> {
    const handle = writer.handle;
    if (!handle) return;
    writer.handle = null;
    openHandles--;
    await handle.close().catch(() => undefined);
  }

  /** Closes idle handles past the capacity, least recently used first. */
  function evict(): void {
    for (const writer of writers.values()) {
      if (openHandles <= capacity) return;
      if (!writer.handle) continue;
      if (writer.running) writer.closeAfter = true;
      else {
        writers.delete(writer.file);
        void closeHandle(writer);
      }
    }
  }

  async function openWriter(writer: Writer): Promise<FileHandle> {
    const check = trimOnOpen || suspect.has(writer.file);
    const handle = await open(writer.file, check ? 'a+' : 'a'); // a+: the torn-tail check reads
    if (check) {
      try {
        await trimTornTail(handle, (await handle.stat()).size);
        suspect.delete(writer.file);
      } catch (error) {
        await handle.close().catch(() => undefined);
        throw error;
      }
    }
    writer.handle = handle;
    openHandles++;
    evict();
    return handle;
  }

  async function run(writer: Writer): Promise<void> {
    while (writer.queue.length > 0) {
      const bytes = Buffer.from(writer.queue.join(''), 'utf8');
      const batch = writer.waiters;
      writer.queue = [];
      writer.waiters = [];
      try {
        const handle = writer.handle ?? (await openWriter(writer));
        try {
          if (writeSyncMode) writeAllSync(handle.fd, bytes, () => suspect.add(writer.file));
          else await writeAll(handle, bytes, fsync, () => suspect.add(writer.file));
        } catch (error) {
          await closeHandle(writer); // reopened by the next append
          throw error;
        }
        for (const waiter of batch) waiter.resolve();
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
    }
    writer.running = null;
    if (writer.closeAfter || closed || !writer.handle) {
      // Released, evicted while writing, or its open failed: forget it (the next append starts over).
      writer.closeAfter = false;
      if (writers.get(writer.file) === writer) writers.delete(writer.file);
      await closeHandle(writer);
    } else evict();
  }

  function writerOf(file: string): Writer {
    let writer = writers.get(file);
    if (writer)
      writers.delete(file); // re-inserted below: most recently used
    else writer = { file, handle: null, queue: [], waiters: [], running: null, closeAfter: false };
    writers.set(file, writer);
    return writer;
  }

  return {
    append(file, text) {
      if (closed) return Promise.reject(Object.assign(new Error('append files are closed'), { code: 'ECLOSED' }));
      const writer = writerOf(file);
      if (writeSyncMode && writer.handle && !writer.running) {
        // Open and idle: written right here, in call order by construction.
        try {
          writeAllSync(writer.handle.fd, Buffer.from(text, 'utf8'), () => suspect.add(file));
          return Promise.resolve();
        } catch (error) {
          writers.delete(file);
          void closeHandle(writer); // reopened by the next append
          return Promise.reject(error);
        }
      }
      return new Promise<void>((resolve, reject) => {
        writer.queue.push(text);
        writer.waiters.push({ resolve, reject });
        writer.running ??= run(writer);
      });
    },
    async release(file) {
      const writer = writers.get(file);
      if (!writer) return;
      if (writer.running) {
        writer.closeAfter = true;
        while (writer.running) await writer.running;
        return;
      }
      writers.delete(file);
      await closeHandle(writer);
    },
    async close() {
      closed = true;
      for (const writer of [...writers.values()]) {
        while (writer.running) await writer.running;
        writers.delete(writer.file);
        await closeHandle(writer);
      }
    },
    get openHandles() {
      return openHandles;
    },
  };
}
