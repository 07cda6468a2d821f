// Random and mutated input loop: 120,000 inputs through every decoder. None may throw; each
// answer is a well-formed packet or a CodecError with a known code. Seeded: a failure prints
// its seed, iteration and input; rerun with MIMO_FUZZ_SEED=<seed> to reproduce.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isCodecError, type CodecError, type CodecErrorCode } from '../codec-error.ts';
import { decodeEnginePacket, encodeEnginePacket } from '../engineio-codec.ts';
import { decodeEnginePayload, encodeEnginePayload } from '../engineio-payload.ts';
import { reconstructBinaryPacket } from '../socketio-binary.ts';
import { decodeSocketPacket, encodeSocketPacket } from '../socketio-codec.ts';
import { isPacketValid } from '../socketio-packet.ts';
import { mutate } from './mutate-input.ts';
import { createRandom, type Random } from './seeded-random.ts';
import { randomBytes, randomEnginePacket, randomSocketPacket, VALID_FRAMES } from './sample-packets.ts';

const SEED = Number(process.env.MIMO_FUZZ_SEED ?? 20240601);
const ITERATIONS = 120_000;
const MAX_PAYLOAD = 4096;
const CODES = new Set<CodecErrorCode>([
  'EMPTY',
  'UNKNOWN_TYPE',
  'TOO_LARGE',
  'BAD_JSON',
  'BAD_NAMESPACE',
  'BAD_ID',
  'BAD_PAYLOAD',
  'TOO_MANY_ATTACHMENTS',
  'BAD_ATTACHMENTS',
  'BAD_BASE64',
]);
const ENGINE_TYPES = new Set(['open', 'close', 'ping', 'pong', 'message', 'upgrade', 'noop']);

function buildDonors(random: Random): string[] {
  const donors = [...VALID_FRAMES];
  for (let i = 0; i < 150; i++) {
    const [string] = encodeSocketPacket(randomSocketPacket(random, i % 3 === 0));
    donors.push(string, '4' + string);
  }
  for (let i = 0; i < 50; i++) {
    donors.push(encodeEnginePayload(Array.from({ length: 1 + random.int(4) }, () => randomEnginePacket(random))));
  }
  return donors;
}

function randomInput(random: Random, donors: readonly string[]): string {
  if (random.bool(0.9)) return mutate(random, random.pick(donors), donors);
  // pure noise: random code units, biased towards the protocol's alphabet
  let out = '';
  const length = random.int(40);
  for (let i = 0; i < length; i++)
    out += random.bool(0.7) ? random.pick([...'0123456789/,-[]{}":b\x1e ']) : String.fromCharCode(random.int(0x10000));
  return out;
}

function checkError(value: unknown, where: string): value is CodecError {
  if (!isCodecError(value)) return false;
  assert.ok(CODES.has(value.code), `${where}: unknown code ${value.code}`);
  assert.type(value.message, 'string', where);
  return true;
}

function checkEnginePacket(value: unknown, where: string): void {
  if (checkError(value, where)) return;
  const packet = value as { type: string; data?: unknown };
  assert.ok(ENGINE_TYPES.has(packet.type), `${where}: type ${packet.type}`);
  assert.ok(
    packet.data === undefined || typeof packet.data === 'string' || packet.data instanceof Uint8Array,
    `${where}: data`,
  );
}

const s = suite('fuzz: decoders never throw');

s(`${ITERATIONS} random and mutated inputs (seed ${SEED})`, () => {
  const random = createRandom(SEED);
  const donors = buildDonors(random);
  let socketPackets = 0;
  let reconstructed = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    const input = randomInput(random, donors);
    const where = `seed ${SEED} iteration ${i} input ${JSON.stringify(input)}`;
    if (i % 4 === 0)
      checkEnginePacket(decodeEnginePacket(randomBytes(random, 64), 32), `seed ${SEED} iteration ${i} bytes`);
    try {
      checkEnginePacket(decodeEnginePacket(input, MAX_PAYLOAD), `${where} engine`);
      const payload = decodeEnginePayload(input, MAX_PAYLOAD);
      if (!checkError(payload, `${where} payload`)) {
        assert.ok(Array.isArray(payload), `${where} payload is neither packets nor error`);
        for (const packet of payload) checkEnginePacket(packet, `${where} payload`);
      }
      const head = decodeSocketPacket(input, { maxAttachments: 1 + random.int(12) });
      if (checkError(head, `${where} socket`)) continue;
      socketPackets++;
      assert.ok(isPacketValid(head), `${where}: decoded packet fails isPacketValid`);
      if (head.attachments !== undefined) {
        const count = Math.max(0, head.attachments + random.pick([0, 0, 0, -1, 1]));
        const buffers = Array.from({ length: count }, () => randomBytes(random, 4));
        const packet = reconstructBinaryPacket(head, buffers);
        if (!checkError(packet, `${where} reconstruct`)) {
          reconstructed++;
          assert.ok(isPacketValid(packet), `${where}: reconstructed packet fails isPacketValid`);
        }
      }
    } catch (error) {
      if (error instanceof assert.Assertion) throw error;
      assert.unreachable(`${where} threw ${String(error)}`);
    }
  }
  // The mutations must still reach deep into the decoder, or the loop proves little. (Its speed is
  // not asserted here: a timed unit test fails on a loaded machine; the codec's cost is benched.)
  assert.ok(socketPackets > ITERATIONS / 20, `only ${socketPackets} inputs decoded to a Socket.IO packet`);
  assert.ok(reconstructed > 100, `only ${reconstructed} binary packets reconstructed`);
});

s('encode then decode is stable for random valid packets (engine)', () => {
  const random = createRandom(SEED + 1);
  for (let i = 0; i < 2_000; i++) {
    const packet = randomEnginePacket(random);
    const encoded = encodeEnginePacket(packet, random.bool());
    const decoded = decodeEnginePacket(encoded);
    assert.not.ok(isCodecError(decoded), String(encoded));
    assert.equal(decoded, packet.data === '' ? { type: packet.type } : packet);
  }
});

s.run();
