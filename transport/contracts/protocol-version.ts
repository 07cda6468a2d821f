// The socket protocol version carried as `v` at the root of every message (seed 001 §0.1).
import * as v from 'valibot';

export const PROTOCOL_VERSION = 1 as const;

/** HTTP header carrying the protocol version (seed 001 §0.1). */
export const PROTOCOL_HEADER = 'X-Mimo-Protocol';

export const ProtocolVersionSchema = v.literal(PROTOCOL_VERSION, (issue) =>
  issue.input === undefined
    ? `missing protocol version v; this server speaks v${PROTOCOL_VERSION}`
    : `unsupported protocol version ${JSON.stringify(issue.input)}; this server speaks v${PROTOCOL_VERSION}`,
);
export type ProtocolVersion = v.InferOutput<typeof ProtocolVersionSchema>;
