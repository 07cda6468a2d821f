// The Socket.IO v5 packet model and its validity rule (socket.io-parser 4.2's decoder rules).
// Every packet decodeSocketPacket returns satisfies isPacketValid.

export const SocketPacketType = {
  CONNECT: 0,
  DISCONNECT: 1,
  EVENT: 2,
  ACK: 3,
  CONNECT_ERROR: 4,
  BINARY_EVENT: 5,
  BINARY_ACK: 6,
} as const;

export type SocketPacketTypeCode = (typeof SocketPacketType)[keyof typeof SocketPacketType];

export interface SocketPacket {
  type: SocketPacketTypeCode;
  nsp: string;
  data?: unknown;
  id?: number;
  attachments?: number;
}

/** Event names a peer may not send: socket.io-parser's decoder rejects them, so do we. */
export const RESERVED_EVENTS: readonly string[] = [
  'connect',
  'connect_error',
  'disconnect',
  'disconnecting',
  'newListener',
  'removeListener',
];

/**
 * socket.io-parser's rules: CONNECT data an object or absent; DISCONNECT no data;
 * CONNECT_ERROR a string or an object; EVENT / BINARY_EVENT a non-empty array whose first
 * element is a number or a non-reserved string; ACK / BINARY_ACK an array. Beyond the
 * reference: the ack id, when present, is a non-negative safe integer, and `attachments`,
 * when present, a positive integer on a BINARY_* packet only.
 */
export function isPacketValid(packet: SocketPacket): boolean {
  if (typeof packet !== 'object' || packet === null) return false;
  if (typeof packet.nsp !== 'string') return false;
  if (packet.id !== undefined && !isAckId(packet.id)) return false;
  const binary = packet.type === SocketPacketType.BINARY_EVENT || packet.type === SocketPacketType.BINARY_ACK;
  if (
    packet.attachments !== undefined &&
    !(binary && Number.isSafeInteger(packet.attachments) && packet.attachments >= 1)
  ) {
    return false;
  }
  return isDataValid(packet.type, packet.data);
}

/** The payload half of isPacketValid, for a packet type and its (possibly absent) data. */
export function isDataValid(type: number, data: unknown): boolean {
  switch (type) {
    case SocketPacketType.CONNECT:
      return data === undefined || isPlainObject(data);
    case SocketPacketType.DISCONNECT:
      return data === undefined;
    case SocketPacketType.CONNECT_ERROR:
      return typeof data === 'string' || isPlainObject(data);
    case SocketPacketType.EVENT:
    case SocketPacketType.BINARY_EVENT:
      return Array.isArray(data) && isEventName(data[0]);
    case SocketPacketType.ACK:
    case SocketPacketType.BINARY_ACK:
      return Array.isArray(data);
    default:
      return false;
  }
}

export function isAckId(id: unknown): id is number {
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0;
}

function isEventName(name: unknown): boolean {
  return typeof name === 'number' || (typeof name === 'string' && !RESERVED_EVENTS.includes(name));
}

function isPlainObject(value: unknown): boolean {
  return Object.prototype.toString.call(value) === '[object Object]';
}
