import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeEnginePayload, encodeEnginePayload } from '../engineio-payload.ts';
import type { EnginePacket } from '../engineio-codec.ts';

const s = suite('engineio polling payloads');

const PACKETS: EnginePacket[] = [
  { type: 'message', data: '0/mimo,{"token":"x"}' },
  { type: 'ping' },
  { type: 'message', data: '51-["bin",{"_placeholder":true,"num":0}]' },
  { type: 'message', data: new Uint8Array([1, 2, 3, 4]) },
  { type: 'noop' },
];
const WIRE = '40/mimo,{"token":"x"}\x1e2\x1e451-["bin",{"_placeholder":true,"num":0}]\x1ebAQIDBA==\x1e6';

s('joins packets with U+001E, binary as b + base64', () => {
  assert.is(encodeEnginePayload(PACKETS), WIRE);
});

s('decodes several packets, text and binary', () => {
  assert.equal(decodeEnginePayload(WIRE, 1000), PACKETS);
});

s('a single packet payload is that packet', () => {
  assert.is(encodeEnginePayload([{ type: 'pong', data: 'probe' }]), '3probe');
  assert.equal(decodeEnginePayload('3probe', 100), [{ type: 'pong', data: 'probe' }]);
});

s('length is checked against maxPayload before splitting or parsing', () => {
  assert.equal(decodeEnginePayload(WIRE, WIRE.length), PACKETS);
  assert.is((decodeEnginePayload(WIRE, WIRE.length - 1) as { code?: string }).code, 'TOO_LARGE');
  // garbage that would fail to parse still reports TOO_LARGE first
  assert.is((decodeEnginePayload('9\x1e9\x1e9', 3) as { code?: string }).code, 'TOO_LARGE');
});

s('any bad packet makes the whole payload an error naming its index', () => {
  const result = decodeEnginePayload('42["a"]\x1e9\x1e3', 100);
  assert.ok(!Array.isArray(result));
  assert.is(result.code, 'UNKNOWN_TYPE');
  assert.match(result.message, 'packet 1');
  assert.is((decodeEnginePayload('2\x1eb!!', 100) as { code?: string }).code, 'BAD_BASE64');
});

s('empty payload and empty packets are EMPTY', () => {
  for (const bad of ['', '\x1e', '2\x1e', '\x1e2', '2\x1e\x1e3']) {
    assert.is((decodeEnginePayload(bad, 100) as { code?: string }).code, 'EMPTY', JSON.stringify(bad));
  }
});

s('round trips a long mixed batch', () => {
  const packets: EnginePacket[] = [];
  for (let i = 0; i < 50; i++) {
    packets.push(
      i % 3 === 0
        ? { type: 'message', data: new Uint8Array([i, i + 1, 255 - i]) }
        : { type: 'message', data: `2["n",${i}]` },
    );
  }
  assert.equal(decodeEnginePayload(encodeEnginePayload(packets), 1e6), packets);
});

s.run();
