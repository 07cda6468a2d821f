// Differential tests against the reference parsers (engine.io-parser 5, socket.io-parser 4.2):
// on a few hundred valid packets both must produce the same wire strings and the same decoded
// packets; on mutated frames, whatever we accept the reference must decode identically.
import { decodePacket, decodePayload, encodePacket, encodePayload, type Packet } from 'engine.io-parser';
import { Decoder, Encoder } from 'socket.io-parser';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeEnginePacket, encodeEnginePacket, type EnginePacket } from '../engineio-codec.ts';
import { decodeEnginePayload, encodeEnginePayload } from '../engineio-payload.ts';
import { reconstructBinaryPacket } from '../socketio-binary.ts';
import { decodeSocketPacket, encodeSocketPacket } from '../socketio-codec.ts';
import type { SocketPacket } from '../socketio-packet.ts';
import { mutate } from './mutate-input.ts';
import { toPlain } from './plain-value.ts';
import { createRandom } from './seeded-random.ts';
import { randomEnginePacket, randomSocketPacket, VALID_FRAMES } from './sample-packets.ts';

function referenceEncodePacket(packet: EnginePacket, supportsBinary: boolean): unknown {
  let out: unknown;
  encodePacket(packet as Packet, supportsBinary, (encoded) => (out = encoded));
  return out;
}

function referenceEncodePayload(packets: EnginePacket[]): string {
  let out = '';
  encodePayload(packets as Packet[], (encoded) => (out = encoded));
  return out;
}

/** Feeds socket.io-parser's Decoder; returns the decoded packet, or null when it throws or waits. */
function referenceDecodeSocket(string: string, buffers: Uint8Array[] = []): unknown {
  const decoder = new Decoder();
  let decoded: unknown = null;
  decoder.on('decoded', (packet: unknown) => (decoded = packet));
  try {
    decoder.add(string);
    for (const buffer of buffers) decoder.add(Buffer.from(buffer));
  } catch {
    return null;
  }
  return decoded;
}

const engine = suite('differential: engine.io-parser');

engine('400 random packets: same encoding both ways, same decoding', () => {
  const random = createRandom(11);
  for (let i = 0; i < 400; i++) {
    const packet = randomEnginePacket(random);
    for (const supportsBinary of [true, false]) {
      const ours = encodeEnginePacket(packet, supportsBinary);
      const reference = referenceEncodePacket(packet, supportsBinary);
      assert.equal(toPlain(ours), toPlain(reference), `encode ${JSON.stringify(toPlain(packet))}`);
      assert.equal(
        toPlain(decodeEnginePacket(ours)),
        toPlain(decodePacket(reference as string)),
        `decode ${String(ours)}`,
      );
    }
  }
});

engine('100 random payloads: same string, same packets', () => {
  const random = createRandom(12);
  for (let i = 0; i < 100; i++) {
    const packets = Array.from({ length: 1 + random.int(6) }, () => randomEnginePacket(random));
    const ours = encodeEnginePayload(packets);
    assert.is(ours, referenceEncodePayload(packets));
    assert.equal(toPlain(decodeEnginePayload(ours, 1e6)), toPlain(decodePayload(ours)));
  }
});

engine('mutated frames: every packet we accept, the reference decodes the same', () => {
  const random = createRandom(13);
  let accepted = 0;
  for (let i = 0; i < 20_000; i++) {
    const input = mutate(random, random.pick(VALID_FRAMES), VALID_FRAMES);
    const ours = decodeEnginePacket(input);
    if (ours.type === 'error') continue;
    accepted++;
    assert.equal(toPlain(ours), toPlain(decodePacket(input)), JSON.stringify(input));
  }
  assert.ok(accepted > 5_000, `only ${accepted} accepted`);
});

engine.run();

const socket = suite('differential: socket.io-parser');

socket('500 random packets (text and binary): same strings and buffers, same decoding', () => {
  const random = createRandom(21);
  const encoder = new Encoder();
  for (let i = 0; i < 500; i++) {
    const packet = randomSocketPacket(random, i % 3 === 0);
    const ours = encodeSocketPacket(packet);
    const reference = encoder.encode(structuredClone(packet) as never) as unknown[];
    assert.equal(toPlain(ours), toPlain(reference), JSON.stringify(toPlain(packet)));

    const [string, ...buffers] = ours;
    const head = decodeSocketPacket(string);
    const decoded =
      head.type === 'error' || buffers.length === 0 ? head : reconstructBinaryPacket(head as SocketPacket, buffers);
    assert.equal(toPlain(decoded), toPlain(referenceDecodeSocket(string, buffers)), string);
  }
});

socket('mutated packets: every packet we accept, the reference decodes the same', () => {
  const random = createRandom(22);
  const donors = [...VALID_FRAMES.filter((frame) => frame.startsWith('4')).map((frame) => frame.slice(1))];
  for (let i = 0; i < 200; i++) donors.push(encodeSocketPacket(randomSocketPacket(random, i % 4 === 0))[0]);
  let accepted = 0;
  for (let i = 0; i < 20_000; i++) {
    const input = mutate(random, random.pick(donors), donors);
    const head = decodeSocketPacket(input);
    if (head.type === 'error') continue;
    const buffers = Array.from({ length: head.attachments ?? 0 }, (_, n) => new Uint8Array([n]));
    const ours = buffers.length > 0 ? reconstructBinaryPacket(head, buffers) : head;
    if (ours.type === 'error') continue;
    accepted++;
    assert.equal(toPlain(referenceDecodeSocket(input, buffers)), toPlain(ours), JSON.stringify(input));
  }
  assert.ok(accepted > 2_000, `only ${accepted} accepted`);
});

socket.run();
