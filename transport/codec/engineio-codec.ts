// Engine.IO v4 packet codec (one packet = one WebSocket message), matching engine.io-parser 5:
// a text packet is its type digit followed by its data (`0{"sid":..}`, `2probe`, `4hello`, `6`);
// a binary packet is always a `message` and travels as raw bytes, or as `b` + base64 when the
// peer cannot take binary frames (and inside polling payloads, see engineio-payload.ts).
import { decodeBase64, encodeBase64 } from './base64.ts';
import { codecError, type CodecError } from './codec-error.ts';
import { toBytes } from './to-bytes.ts';

export type EnginePacketType = 'open' | 'close' | 'ping' | 'pong' | 'message' | 'upgrade' | 'noop';

export interface EnginePacket {
  type: EnginePacketType;
  data?: string | Uint8Array;
}

/** Index = the packet's type digit on the wire. */
const ENGINE_PACKET_TYPES: readonly EnginePacketType[] = [
  'open',
  'close',
  'ping',
  'pong',
  'message',
  'upgrade',
  'noop',
];

const TYPE_DIGIT: Readonly<Record<EnginePacketType, string>> = {
  open: '0',
  close: '1',
  ping: '2',
  pong: '3',
  message: '4',
  upgrade: '5',
  noop: '6',
};

/**
 * Encodes one packet. Binary data (Uint8Array or any ArrayBuffer view) becomes raw bytes when
 * `supportsBinary`, else `'b' + base64`; its type is ignored, as only messages carry binary.
 */
export function encodeEnginePacket(packet: EnginePacket, supportsBinary: boolean): string | Uint8Array {
  const { data } = packet;
  if (typeof data === 'string' || data === undefined) return TYPE_DIGIT[packet.type] + (data ?? '');
  const bytes = toBytes(data);
  return supportsBinary ? bytes : 'b' + encodeBase64(bytes);
}

/**
 * Decodes one packet. A Uint8Array is a binary message as received; a string is a text frame,
 * `b...` being a base64 binary message. With `maxPayload`, a string longer than that many
 * UTF-16 code units, or bytes longer than that many bytes, are TOO_LARGE (checked first).
 */
export function decodeEnginePacket(input: string | Uint8Array, maxPayload?: number): EnginePacket | CodecError {
  if (typeof input !== 'string') {
    const bytes = binaryInput(input);
    if (bytes === null) return codecError('BAD_PAYLOAD', 'expected a string or bytes');
    if (maxPayload !== undefined && bytes.byteLength > maxPayload) {
      return codecError('TOO_LARGE', `binary packet of ${bytes.byteLength} bytes exceeds maxPayload ${maxPayload}`);
    }
    return { type: 'message', data: bytes };
  }
  if (maxPayload !== undefined && input.length > maxPayload) {
    return codecError('TOO_LARGE', `packet of ${input.length} characters exceeds maxPayload ${maxPayload}`);
  }
  if (input.length === 0) return codecError('EMPTY', 'empty packet');
  const first = input.charCodeAt(0);
  if (first === 98 /* b */) {
    const bytes = decodeBase64(input.slice(1));
    if (bytes === null) return codecError('BAD_BASE64', 'binary packet is not valid base64');
    return { type: 'message', data: bytes };
  }
  const type = ENGINE_PACKET_TYPES[first - 48];
  if (type === undefined) return codecError('UNKNOWN_TYPE', `unknown packet type ${JSON.stringify(input[0])}`);
  return input.length > 1 ? { type, data: input.slice(1) } : { type };
}

function binaryInput(input: unknown): Uint8Array | null {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer || ArrayBuffer.isView(input)) return toBytes(input);
  return null;
}
