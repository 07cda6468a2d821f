import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeEnginePacket, encodeEnginePacket, type EnginePacket } from '../engineio-codec.ts';

const OPEN =
  '{"sid":"lv_VI97HAXpY6yYWAAAC","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}';

/** [packet, exact text frame] in both directions. */
const TEXT_FRAMES: Array<[EnginePacket, string]> = [
  [{ type: 'open', data: OPEN }, '0' + OPEN],
  [{ type: 'close' }, '1'],
  [{ type: 'ping' }, '2'],
  [{ type: 'pong' }, '3'],
  [{ type: 'ping', data: 'probe' }, '2probe'],
  [{ type: 'pong', data: 'probe' }, '3probe'],
  [{ type: 'message', data: '2["hello",1]' }, '42["hello",1]'],
  [{ type: 'message', data: 'é😀' }, '4é😀'],
  [{ type: 'upgrade' }, '5'],
  [{ type: 'noop' }, '6'],
];

const text = suite('engineio text packets');

text('encodes each packet type to its exact wire string', () => {
  for (const [packet, wire] of TEXT_FRAMES) {
    assert.is(encodeEnginePacket(packet, true), wire);
    assert.is(encodeEnginePacket(packet, false), wire);
  }
});

text('decodes each wire string to its packet', () => {
  for (const [packet, wire] of TEXT_FRAMES) assert.equal(decodeEnginePacket(wire), packet, wire);
});

text('an empty data string encodes like no data and decodes to no data', () => {
  assert.is(encodeEnginePacket({ type: 'message', data: '' }, true), '4');
  assert.equal(decodeEnginePacket('4'), { type: 'message' });
});

text('unknown type and empty input are errors, not throws', () => {
  const unknown = decodeEnginePacket('7');
  assert.is(unknown.type, 'error');
  assert.is((unknown as { code: string }).code, 'UNKNOWN_TYPE');
  assert.is((decodeEnginePacket('') as { code: string }).code, 'EMPTY');
});

text.run();

const binary = suite('engineio binary packets');

binary('raw bytes pass through when the peer supports binary', () => {
  const bytes = new Uint8Array([1, 2, 3, 255]);
  assert.is(encodeEnginePacket({ type: 'message', data: bytes }, true), bytes);
});

binary("'b' + base64 when it does not", () => {
  assert.is(encodeEnginePacket({ type: 'message', data: new Uint8Array([1, 2, 3, 4]) }, false), 'bAQIDBA==');
  assert.is(encodeEnginePacket({ type: 'message', data: new Uint8Array([]) }, false), 'b');
});

binary('other ArrayBuffer views encode their own bytes only', () => {
  const backing = new Uint8Array([9, 9, 1, 2, 9]);
  const view = new DataView(backing.buffer, 2, 2);
  assert.is(encodeEnginePacket({ type: 'message', data: view as unknown as Uint8Array }, false), 'bAQI=');
  const encoded = encodeEnginePacket(
    { type: 'message', data: new Uint16Array([0x0201]) as unknown as Uint8Array },
    true,
  );
  assert.equal([...(encoded as Uint8Array)], [1, 2]);
});

binary('decodes bytes and base64 frames into message bytes', () => {
  const bytes = new Uint8Array([0, 128, 255]);
  assert.equal(decodeEnginePacket(bytes), { type: 'message', data: bytes });
  assert.equal(decodeEnginePacket('bAQIDBA=='), { type: 'message', data: new Uint8Array([1, 2, 3, 4]) });
  assert.equal(decodeEnginePacket('bAQID'), { type: 'message', data: new Uint8Array([1, 2, 3]) });
  assert.equal(decodeEnginePacket('bAQI'), { type: 'message', data: new Uint8Array([1, 2]) });
  assert.equal(decodeEnginePacket('b'), { type: 'message', data: new Uint8Array([]) });
});

binary('bad base64 is BAD_BASE64', () => {
  for (const bad of ['b!', 'bA', 'bAQ=I', 'b====', 'bAQ I']) {
    assert.is((decodeEnginePacket(bad) as { code?: string }).code, 'BAD_BASE64', bad);
  }
});

binary('round trips in both modes', () => {
  const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) & 255);
  for (const supportsBinary of [true, false]) {
    const decoded = decodeEnginePacket(encodeEnginePacket({ type: 'message', data: bytes }, supportsBinary));
    assert.equal(decoded, { type: 'message', data: bytes });
  }
});

binary.run();

const limits = suite('engineio maxPayload');

limits('text frames are measured in characters, checked before parsing', () => {
  assert.equal(decodeEnginePacket('4' + 'x'.repeat(9), 10), { type: 'message', data: 'x'.repeat(9) });
  assert.is((decodeEnginePacket('4' + 'x'.repeat(10), 10) as { code?: string }).code, 'TOO_LARGE');
  // '9...' would be UNKNOWN_TYPE: TOO_LARGE wins because the length is checked first
  assert.is((decodeEnginePacket('9'.repeat(11), 10) as { code?: string }).code, 'TOO_LARGE');
  // 'é' is 2 bytes in UTF-8 but one character: within a limit of 5
  assert.equal(decodeEnginePacket('4éééé', 5), { type: 'message', data: 'éééé' });
});

limits('binary frames are measured in bytes', () => {
  assert.equal(decodeEnginePacket(new Uint8Array(10), 10), { type: 'message', data: new Uint8Array(10) });
  assert.is((decodeEnginePacket(new Uint8Array(11), 10) as { code?: string }).code, 'TOO_LARGE');
});

limits('base64 frames count their characters', () => {
  assert.is((decodeEnginePacket('bAQIDBA==', 8) as { code?: string }).code, 'TOO_LARGE');
  assert.equal(decodeEnginePacket('bAQIDBA==', 9), { type: 'message', data: new Uint8Array([1, 2, 3, 4]) });
});

limits('no limit when maxPayload is omitted', () => {
  assert.is((decodeEnginePacket('4' + 'x'.repeat(100_000)) as EnginePacket).type, 'message');
});

limits.run();
