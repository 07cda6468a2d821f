// Binary attachments of Socket.IO v5 packets (socket.io-parser's binary.ts / is-binary.ts):
// on encode every buffer in the data becomes `{"_placeholder":true,"num":n}` and travels as its
// own Engine.IO binary message after the packet string; on decode the placeholders are replaced
// by the buffers received, in order.
import { codecError, type CodecError } from './codec-error.ts';
import { toBytes } from './to-bytes.ts';
import { SocketPacketType, type SocketPacket } from './socketio-packet.ts';

export interface Placeholder {
  _placeholder: true;
  num: number;
}

/** Uint8Array (and so Node's Buffer), any other ArrayBuffer view, or an ArrayBuffer. */
export function isBinary(value: unknown): value is ArrayBuffer | ArrayBufferView {
  return value instanceof ArrayBuffer || ArrayBuffer.isView(value);
}

/**
 * Whether `data` holds a buffer anywhere, looking through `toJSON()` once like the reference.
 * Recursive like JSON.stringify: cyclic data throws a RangeError.
 */
export function hasBinary(data: unknown, viaToJSON = false): boolean {
  if (!data || typeof data !== 'object') return false;
  // Plain loops: this runs on every packet sent, so no closure and no key array per object.
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++) if (hasBinary(data[i])) return true;
    return false;
  }
  if (isBinary(data)) return true;
  const toJSON = (data as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function' && !viaToJSON) return hasBinary(toJSON.call(data), true);
  for (const key in data) {
    // Own enumerable keys only, as Object.keys.
    if (hasOwn.call(data, key) && hasBinary((data as Record<string, unknown>)[key])) return true;
  }
  return false;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Copies `data` with each buffer replaced by a numbered placeholder; buffers in order. */
export function deconstructData(data: unknown): { data: unknown; buffers: Uint8Array[] } {
  const buffers: Uint8Array[] = [];
  return { data: deconstruct(data, buffers, false), buffers };
}

function deconstruct(data: unknown, buffers: Uint8Array[], viaToJSON: boolean): unknown {
  if (!data || typeof data !== 'object') return data;
  if (isBinary(data)) {
    const placeholder: Placeholder = { _placeholder: true, num: buffers.length };
    buffers.push(toBytes(data));
    return placeholder;
  }
  if (Array.isArray(data)) return data.map((item) => deconstruct(item, buffers, false));
  if (data instanceof Date) return data;
  const toJSON = (data as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function' && !viaToJSON) return deconstruct(toJSON.call(data), buffers, true);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(data)) {
    setOwn(copy, key, deconstruct((data as Record<string, unknown>)[key], buffers, false));
  }
  return copy;
}

/**
 * Puts `buffers` back into a decoded BINARY_EVENT / BINARY_ACK and returns the finished
 * EVENT / ACK (as socket.io-parser's decoder emits it), without `attachments`. The input is
 * not modified. BAD_ATTACHMENTS when the packet is not binary, when `buffers.length` differs
 * from `attachments`, or when a placeholder's `num` is not an index into `buffers`.
 */
export function reconstructBinaryPacket(packet: SocketPacket, buffers: Uint8Array[]): SocketPacket | CodecError {
  const binaryEvent = packet.type === SocketPacketType.BINARY_EVENT;
  if (!binaryEvent && packet.type !== SocketPacketType.BINARY_ACK) {
    return codecError('BAD_ATTACHMENTS', `packet type ${packet.type} carries no attachments`);
  }
  if (!Array.isArray(buffers) || buffers.length !== packet.attachments) {
    const got = Array.isArray(buffers) ? buffers.length : 'no';
    return codecError('BAD_ATTACHMENTS', `expected ${packet.attachments} attachments, got ${got}`);
  }
  if (!buffers.every((buffer) => buffer instanceof Uint8Array)) {
    return codecError('BAD_ATTACHMENTS', 'attachments must be Uint8Array');
  }
  const data = replacePlaceholders(packet.data, buffers);
  if (data instanceof PlaceholderError) return codecError('BAD_ATTACHMENTS', data.message);
  const result: SocketPacket = {
    type: binaryEvent ? SocketPacketType.EVENT : SocketPacketType.ACK,
    nsp: packet.nsp,
    data,
  };
  if (packet.id !== undefined) result.id = packet.id;
  return result;
}

class PlaceholderError {
  constructor(readonly message: string) {}
}

/**
 * Iterative copy (no recursion, so deeply nested JSON cannot overflow the stack); a source
 * node seen twice maps to the same copy, so even cyclic input terminates.
 */
function replacePlaceholders(root: unknown, buffers: Uint8Array[]): unknown {
  const copies = new Map<object, object>();
  const pending: object[] = [];
  const resolve = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    if (isPlaceholderLike(value)) {
      const num = (value as { num?: unknown }).num;
      if (typeof num === 'number' && Number.isInteger(num) && num >= 0 && num < buffers.length) return buffers[num];
      return new PlaceholderError(`placeholder num ${JSON.stringify(num) ?? 'undefined'} is not an attachment index`);
    }
    const known = copies.get(value);
    if (known) return known;
    const copy = Array.isArray(value) ? new Array<unknown>(value.length) : {};
    copies.set(value, copy);
    pending.push(value);
    return copy;
  };
  const top = resolve(root);
  while (pending.length > 0 && !(top instanceof PlaceholderError)) {
    const source = pending.pop()!;
    const copy = copies.get(source) as Record<string, unknown>;
    for (const key of Object.keys(source)) {
      const value = resolve((source as Record<string, unknown>)[key]);
      if (value instanceof PlaceholderError) return value;
      setOwn(copy, key, value);
    }
  }
  return top;
}

function isPlaceholderLike(value: object): boolean {
  return !Array.isArray(value) && (value as { _placeholder?: unknown })._placeholder === true;
}

/** Assignment, except that a JSON key `__proto__` stays an own property instead of a prototype. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
