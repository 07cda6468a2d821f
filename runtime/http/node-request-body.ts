// An upload's body read straight from the Node request (`c.env.incoming` under @hono/node-server),
// instead of through `c.req.raw.body`: that getter builds a whole web Request (headers copied, a
// ReadableStream over Readable.toWeb) for each upload, only for its bytes to be read once.
// Stopping early (a refused or timed-out upload: `return()`) detaches and leaves the request
// paused, as cancelling the adapter's body stream does: the adapter drains or closes it once the
// response is sent, so the refusal still reaches the client.
import type { IncomingMessage } from 'node:http';

export function nodeRequestBody(incoming: IncomingMessage): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const chunks: Buffer[] = [];
      let ended = false;
      let failure: unknown;
      let failed = false;
      let waiting: { resolve(step: IteratorResult<Uint8Array>): void; reject(error: unknown): void } | null = null;
      const settle = () => {
        if (!waiting) return;
        const w = waiting;
        if (chunks.length > 0) {
          waiting = null;
          w.resolve({ done: false, value: chunks.shift()! });
          if (chunks.length === 0 && !ended) incoming.resume();
        } else if (failed) {
          waiting = null;
          w.reject(failure);
        } else if (ended) {
          waiting = null;
          w.resolve({ done: true, value: undefined });
        }
      };
      const onData = (chunk: Buffer) => {
        chunks.push(chunk);
        incoming.pause(); // one chunk ahead at most: memory stays bounded by the reader
        settle();
      };
      const onEnd = () => {
        ended = true;
        settle();
      };
      const onError = (error: unknown) => {
        failed = true;
        failure = error;
        settle();
      };
      // A request that closes before its end (the client went away) is a failed body.
      const onClose = () => {
        if (!ended)
          onError(Object.assign(new Error('the request closed before its body ended'), { code: 'ECONNRESET' }));
      };
      const detach = () => {
        incoming.off('data', onData);
        incoming.off('end', onEnd);
        incoming.off('error', onError);
        incoming.off('close', onClose);
      };
      if (incoming.readableEnded) ended = true;
      else {
        incoming.on('data', onData);
        incoming.on('end', onEnd);
        incoming.on('error', onError);
        incoming.on('close', onClose);
      }
      return {
        next() {
          return new Promise<IteratorResult<Uint8Array>>((resolve, reject) => {
            waiting = { resolve, reject };
            settle();
            if (waiting && !ended && !failed) incoming.resume();
          });
        },
        async return() {
          detach();
          incoming.pause();
          chunks.length = 0;
          return { done: true, value: undefined };
        },
      };
    },
  };
}
