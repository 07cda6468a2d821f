// An upload's body read straight from the Node request (`c.env.incoming` under @hono/node-server),
// instead of through `c.req.raw.body`: that getter builds a whole web Request (headers copied, a
// ReadableStream over Readable.toWeb) for each upload, only for its bytes to be read once.
// Node's own iterator, told not to destroy the request when the reader stops early (a refused or
// timed-out upload): the adapter drains or closes it once the response is sent, so the refusal
// still reaches the client.
import type { IncomingMessage } from 'node:http';

export function nodeRequestBody(incoming: IncomingMessage): AsyncIterable<Uint8Array> {
  return { [Symbol.asyncIterator]: () => incoming.iterator({ destroyOnReturn: false }) };
}
