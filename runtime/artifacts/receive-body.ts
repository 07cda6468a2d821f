// Streams an upload body into a sink (a file, or PostgreSQL chunks), enforcing the byte limit while reading (nothing past
// the limit is written) and a deadline for the whole upload. Accepts a web ReadableStream or
// any AsyncIterable of bytes (e.g. a Node request). On any failure the body is cancelled and the
// partial bytes are left for the caller to drop (UploadSink.abort).
import { ArtifactError, ioError } from './artifact-error.ts';
import type { Scheduler } from './artifact-types.ts';

export type UploadBody = AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;

interface ChunkReader {
  read(): Promise<{ done?: boolean; value?: unknown }>;
  cancel(): void;
}

function isReadableStream(body: unknown): body is ReadableStream<Uint8Array> {
  return typeof (body as ReadableStream | null)?.getReader === 'function';
}

function chunkReader(body: UploadBody): ChunkReader {
  if (isReadableStream(body)) {
    const reader = body.getReader();
    return { read: () => reader.read(), cancel: () => void reader.cancel().catch(() => undefined) };
  }
  const iterator = body[Symbol.asyncIterator]();
  return {
    read: () => iterator.next(),
    cancel: () => void Promise.resolve(iterator.return?.()).catch(() => undefined),
  };
}

/** Cancels a body we will not read (e.g. the upload was refused before streaming). */
export function discardBody(body: unknown): void {
  try {
    if (isReadableStream(body)) void body.cancel().catch(() => undefined);
    else if (body && typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
      const iterator = (body as AsyncIterable<unknown>)[Symbol.asyncIterator]();
      void Promise.resolve(iterator.return?.()).catch(() => undefined);
    }
  } catch {
    // nothing more we can do with a body that misbehaves
  }
}

export interface ReceiveOptions {
  body: UploadBody;
  /** Takes each chunk as it arrives (awaited before the next read: memory stays bounded). */
  sink: { write(chunk: Uint8Array): Promise<void> };
  maxBytes: number;
  timeoutMs: number;
  scheduler: Scheduler;
}

/** Resolves to the number of bytes written; rejects with an ArtifactError. */
export async function receiveBody({ body, sink, maxBytes, timeoutMs, scheduler }: ReceiveOptions): Promise<number> {
  if (body === null || typeof body !== 'object' || !(isReadableStream(body) || Symbol.asyncIterator in body)) {
    throw new ArtifactError(
      'BAD_REQUEST',
      'body_error',
      'upload body must be a ReadableStream or an AsyncIterable of bytes',
    );
  }
  const reader = chunkReader(body);
  let timedOut = false;
  let timer: unknown;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = scheduler.setTimeout(() => {
      timedOut = true;
      resolve('timeout');
    }, timeoutMs);
  });
  const tooSlow = () =>
    new ArtifactError('BAD_REQUEST', 'upload_timeout', `upload did not finish within ${timeoutMs} ms`, {
      status: 408,
      retryable: true,
    });
  let size = 0;
  try {
    for (;;) {
      let step: Awaited<ReturnType<ChunkReader['read']>> | 'timeout';
      try {
        step = await Promise.race([reader.read(), deadline]);
      } catch (error) {
        throw new ArtifactError('BAD_REQUEST', 'body_error', 'the upload body failed before it ended', {
          retryable: true,
          cause: error,
        });
      }
      if (step === 'timeout') throw tooSlow();
      if (step.done) break;
      const chunk = step.value;
      if (!(chunk instanceof Uint8Array))
        throw new ArtifactError('BAD_REQUEST', 'body_error', 'upload body yielded something other than bytes');
      size += chunk.byteLength;
      if (size > maxBytes) {
        throw new ArtifactError('BAD_REQUEST', 'too_large', `upload exceeds the limit of ${maxBytes} bytes`, {
          status: 413,
          context: { maxUploadBytes: maxBytes },
        });
      }
      try {
        await sink.write(chunk);
      } catch (error) {
        throw ioError('write the upload', error);
      }
      if (timedOut) throw tooSlow();
    }
    return size;
  } catch (error) {
    reader.cancel();
    throw error;
  } finally {
    scheduler.clearTimeout(timer);
  }
}
