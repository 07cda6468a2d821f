// Generators of valid Engine.IO / Socket.IO packets (JSON-clean data, so round trips are exact)
// and a list of valid wire frames used as seeds for mutation.
import type { EnginePacket } from '../engineio-codec.ts';
import type { SocketPacket } from '../socketio-packet.ts';
import type { Random } from './seeded-random.ts';

const STRING_PIECES = [
  'a',
  'hello',
  'Z',
  ' ',
  '"',
  '\\',
  '/',
  ',',
  '-',
  '[',
  '{',
  '\n',
  '\t',
  '\u0000',
  '\u001f',
  '\u2028',
  'é',
  '中文',
  '😀',
  '\ud83d\ude00',
  '_placeholder',
  '123',
  '0',
];

export function randomString(random: Random, maxPieces = 5): string {
  let out = '';
  const pieces = random.int(maxPieces + 1);
  for (let i = 0; i < pieces; i++) out += random.pick(STRING_PIECES);
  return out;
}

export function randomJson(random: Random, depth = 3): unknown {
  const kind = random.int(depth > 0 ? 8 : 5);
  switch (kind) {
    case 0:
      return randomString(random);
    case 1:
      return random.pick([0, 1, -1, 7, 42, 3.25, -0.5, 1e21, 2 ** 53 - 1, 1e-7]);
    case 2:
      return random.bool();
    case 3:
      return null;
    case 4:
      return random.int(1000);
    case 5:
    case 6: {
      const out: Record<string, unknown> = {};
      const size = random.int(4);
      for (let i = 0; i < size; i++) {
        const key = randomString(random, 2);
        out[key === '' || key === '_placeholder' ? 'k' : key] = randomJson(random, depth - 1);
      }
      return out;
    }
    default:
      return Array.from({ length: random.int(4) }, () => randomJson(random, depth - 1));
  }
}

export function randomBytes(random: Random, maxLength = 40): Uint8Array {
  return Uint8Array.from({ length: random.int(maxLength + 1) }, () => random.int(256));
}

const NAMESPACES = ['/', '/mimo', '/admin', '/a/b', '/ns-1', '/ünï', '/with space', '/😀'];
const EVENT_NAMES = ['hello', 'frontend_message', 'plugin_message', 'browser_action', 'a,b', '', 'é', 'connected'];

/** Inserts buffers at random places of JSON data (never as the event name). */
function withBuffers(random: Random, data: unknown[], count: number): unknown[] {
  const out = [...data];
  for (let i = 0; i < count; i++) {
    const buffer = randomBytes(random);
    if (random.bool()) out.splice(1 + random.int(out.length), 0, buffer);
    else
      out.splice(1 + random.int(out.length), 0, {
        file: buffer,
        nested: [random.int(9), { deeper: randomBytes(random, 8) }],
      });
  }
  return out;
}

/** A valid packet in its decoded (reconstructed) form; `binary` adds buffers to EVENT / ACK. */
export function randomSocketPacket(random: Random, binary = false): SocketPacket {
  const nsp = random.pick(NAMESPACES);
  const id = random.bool(0.4) ? random.pick([0, 1, 7, 42, 1234, 2 ** 31, 2 ** 53 - 1]) : undefined;
  const type = binary ? random.pick([2, 3] as const) : random.pick([0, 0, 1, 2, 2, 2, 3, 3, 4] as const);
  const args = Array.from({ length: random.int(4) }, () => randomJson(random));
  let data: unknown;
  switch (type) {
    case 0:
      data = random.bool()
        ? undefined
        : { token: randomString(random), clientType: 'plugin', extra: randomJson(random) };
      break;
    case 1:
      data = undefined;
      break;
    case 2:
      data = [random.bool(0.8) ? random.pick(EVENT_NAMES) : random.int(100), ...args];
      break;
    case 3:
      data = args;
      break;
    case 4:
      data = random.bool()
        ? randomString(random) || 'oops'
        : { message: 'Invalid namespace', data: randomJson(random, 1) };
      break;
  }
  if (binary && Array.isArray(data)) data = withBuffers(random, data, 1 + random.int(3));
  const packet: SocketPacket = { type, nsp };
  if (data !== undefined) packet.data = data;
  if (id !== undefined && type !== 0 && type !== 1 && type !== 4) packet.id = id;
  return packet;
}

export function randomEnginePacket(random: Random): EnginePacket {
  const type = random.pick([
    'open',
    'close',
    'ping',
    'pong',
    'message',
    'message',
    'message',
    'upgrade',
    'noop',
  ] as const);
  if (type === 'message' && random.bool(0.3)) return { type, data: randomBytes(random) };
  if (type === 'close' || type === 'upgrade' || type === 'noop') return { type };
  if (type === 'open')
    return {
      type,
      data: JSON.stringify({
        sid: randomString(random, 3),
        upgrades: [],
        pingInterval: 25000,
        pingTimeout: 20000,
        maxPayload: 1e6,
      }),
    };
  if (type === 'ping' || type === 'pong') return random.bool() ? { type } : { type, data: 'probe' };
  return { type, data: randomString(random, 8) || 'x' };
}

/** Valid wire frames (Engine.IO text frames carrying Socket.IO packets, and a few others). */
export const VALID_FRAMES: readonly string[] = [
  '0{"sid":"lv_VI97HAXpY6yYWAAAC","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}',
  '1',
  '2',
  '3',
  '2probe',
  '3probe',
  '5',
  '6',
  'bAQIDBA==',
  '40',
  '40/mimo,{"token":"x","clientType":"plugin","clientId":"c1"}',
  '40/mimo,{"sid":"abc"}',
  '41/mimo,',
  '42["hello",1]',
  '42/mimo,7["browser_action",{"action":"click","selector":"#go","timeoutMs":5000}]',
  '43/mimo,7[{"ok":true,"result":{"title":"é😀"}}]',
  '44/nsp,{"message":"Invalid namespace"}',
  '44"unauthorized"',
  '451-["bin",{"_placeholder":true,"num":0}]',
  '452-/mimo,3["upload",{"a":{"_placeholder":true,"num":0}},[{"_placeholder":true,"num":1}]]',
  '461-/mimo,9[{"_placeholder":true,"num":0}]',
  '42/mimo,["frontend_message",{"type":"user_message","text":"hi \\"there\\"\\n","ts":1700000000000}]',
];
