// Socket.IO v5 packet codec, wire-compatible with socket.io-parser 4.2:
//   <type>[<attachments>-][<nsp>,][<ack id>][<JSON data>]
// e.g. `2["hello",1]`, `0/mimo,{"token":"x"}`, `42/mimo,7["browser_action",{..}]` once framed
// by Engine.IO, `51-["bin",{"_placeholder":true,"num":0}]`, `4/nsp,{"message":"Invalid namespace"}`.
import { codecError, type CodecError } from './codec-error.ts';
import { deconstructData, hasBinary } from './socketio-binary.ts';
import { isDataValid, SocketPacketType, type SocketPacket, type SocketPacketTypeCode } from './socketio-packet.ts';

export const DEFAULT_MAX_ATTACHMENTS = 10;

/** 16 digits reach Number.MAX_SAFE_INTEGER; longer ids are rejected before conversion. */
const MAX_ID_DIGITS = 16;

/**
 * Encodes a packet as its string, followed by its binary attachments. An EVENT or ACK (or a
 * BINARY_* one) is sent as BINARY_EVENT / BINARY_ACK exactly when its data holds a buffer,
 * otherwise as a plain EVENT / ACK. Data goes through JSON.stringify: cyclic data throws.
 */
export function encodeSocketPacket(packet: SocketPacket): [string, ...Uint8Array[]] {
  const { type } = packet;
  const eventLike = type === SocketPacketType.EVENT || type === SocketPacketType.BINARY_EVENT;
  if (eventLike || type === SocketPacketType.ACK || type === SocketPacketType.BINARY_ACK) {
    if (hasBinary(packet.data)) {
      const { data, buffers } = deconstructData(packet.data);
      const binaryType = eventLike ? SocketPacketType.BINARY_EVENT : SocketPacketType.BINARY_ACK;
      return [encodeAsString(binaryType, packet.nsp, packet.id, data, buffers.length), ...buffers];
    }
    const plainType = eventLike ? SocketPacketType.EVENT : SocketPacketType.ACK;
    return [encodeAsString(plainType, packet.nsp, packet.id, packet.data, 0)];
  }
  return [encodeAsString(type, packet.nsp, packet.id, packet.data, 0)];
}

function encodeAsString(type: number, nsp: string, id: number | undefined, data: unknown, attachments: number): string {
  let out = String(type);
  if (attachments > 0) out += attachments + '-';
  if (nsp && nsp !== '/') out += nsp + ',';
  if (id !== undefined && id !== null) out += id;
  if (data !== undefined && data !== null) out += JSON.stringify(data) ?? '';
  return out;
}

/**
 * Decodes a packet string; never throws. A BINARY_EVENT / BINARY_ACK comes back with its
 * `attachments` count (checked against `maxAttachments`, default 10, before any JSON is parsed)
 * and its placeholders still in `data`: pass it and the buffers to reconstructBinaryPacket.
 * Stricter than socket.io-parser where it is lax: an EVENT / ACK / CONNECT_ERROR without data,
 * non-digit attachments, control characters in a namespace, data starting with whitespace and
 * ids beyond 2^53 are errors.
 */
export function decodeSocketPacket(input: string, limits?: { maxAttachments?: number }): SocketPacket | CodecError {
  if (typeof input !== 'string') return codecError('BAD_PAYLOAD', 'expected a string packet');
  if (input.length === 0) return codecError('EMPTY', 'empty packet');
  const typeDigit = input.charCodeAt(0) - 48;
  if (!(typeDigit >= 0 && typeDigit <= 6)) {
    return codecError('UNKNOWN_TYPE', `unknown packet type ${JSON.stringify(input[0])}`);
  }
  const type = typeDigit as SocketPacketTypeCode;
  const packet: SocketPacket = { type, nsp: '/' };
  let i = 1;

  if (type === SocketPacketType.BINARY_EVENT || type === SocketPacketType.BINARY_ACK) {
    const digitsEnd = scanDigits(input, i);
    if (digitsEnd === i || input.charCodeAt(digitsEnd) !== 45 /* - */) {
      return codecError('BAD_ATTACHMENTS', 'binary packet without "<count>-" attachments header');
    }
    const maxAttachments = limits?.maxAttachments ?? DEFAULT_MAX_ATTACHMENTS;
    const count = digitsEnd - i > 15 ? Infinity : Number(input.slice(i, digitsEnd));
    if (count > maxAttachments) {
      return codecError(
        'TOO_MANY_ATTACHMENTS',
        `${input.slice(i, Math.min(digitsEnd, i + 20))} attachments exceed the limit of ${maxAttachments}`,
      );
    }
    if (count < 1) return codecError('BAD_ATTACHMENTS', 'a binary packet needs at least one attachment');
    packet.attachments = count;
    i = digitsEnd + 1;
  }

  if (input.charCodeAt(i) === 47 /* / */) {
    const comma = input.indexOf(',', i);
    const end = comma === -1 ? input.length : comma;
    for (let c = i; c < end; c++) {
      const code = input.charCodeAt(c);
      if (code < 0x20 || code === 0x7f) return codecError('BAD_NAMESPACE', 'namespace contains control characters');
    }
    packet.nsp = input.slice(i, end);
    i = comma === -1 ? input.length : comma + 1;
  }

  const idEnd = scanDigits(input, i);
  if (idEnd > i) {
    if (idEnd - i > MAX_ID_DIGITS) return codecError('BAD_ID', `ack id of ${idEnd - i} digits`);
    const id = Number(input.slice(i, idEnd));
    if (!Number.isSafeInteger(id)) return codecError('BAD_ID', 'ack id beyond 2^53');
    packet.id = id;
    i = idEnd;
  }

  if (i < input.length) {
    // socket.io-parser would read leading whitespace as ack-id digits (Number(' ') == 0); refuse it.
    const first = input.charCodeAt(i);
    if (first !== 0x5b /* [ */ && first !== 0x7b /* { */ && first !== 0x22 /* " */ && /\s/.test(input[i]!)) {
      return codecError('BAD_JSON', 'packet data starts with whitespace');
    }
    let data: unknown;
    try {
      data = JSON.parse(input.slice(i));
    } catch {
      return codecError('BAD_JSON', 'packet data is not valid JSON');
    }
    packet.data = data;
  }
  if (!isDataValid(type, packet.data)) {
    return codecError('BAD_PAYLOAD', `invalid data for packet type ${type}`);
  }
  return packet;
}

function scanDigits(input: string, from: number): number {
  let i = from;
  while (i < input.length) {
    const c = input.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i++;
  }
  return i;
}
