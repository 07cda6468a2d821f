// Malformed inputs and the exact error each must produce: decode returns a CodecError value,
// never throws, never a packet. Layers: `engine` = one Engine.IO packet, `payload` = a polling
// payload, `socket` = one Socket.IO packet string, `frame` = an Engine.IO text frame whose
// message carries a Socket.IO packet (what a socket.io-client sends), `binary` = a Socket.IO
// packet string followed by its attachments.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { CodecError, CodecErrorCode } from '../codec-error.ts';
import { decodeEnginePacket } from '../engineio-codec.ts';
import { decodeEnginePayload } from '../engineio-payload.ts';
import { reconstructBinaryPacket } from '../socketio-binary.ts';
import { decodeSocketPacket } from '../socketio-codec.ts';

type Layer = 'engine' | 'payload' | 'socket' | 'frame' | 'binary';
type Entry = [layer: Layer, input: string, code: CodecErrorCode, buffers?: number];

const MAX = 1000;
const P = '{"_placeholder":true,"num":';

const CORPUS: Entry[] = [
  // Engine.IO packets
  ['engine', '', 'EMPTY'],
  ['engine', '9', 'UNKNOWN_TYPE'],
  ['engine', '7', 'UNKNOWN_TYPE'],
  ['engine', 'x2', 'UNKNOWN_TYPE'],
  ['engine', ' 4hello', 'UNKNOWN_TYPE'],
  ['engine', '\u00004', 'UNKNOWN_TYPE'],
  ['engine', 'B', 'UNKNOWN_TYPE'],
  ['engine', 'b!', 'BAD_BASE64'],
  ['engine', 'bA', 'BAD_BASE64'],
  ['engine', 'bAQ=I', 'BAD_BASE64'],
  ['engine', 'bAQID=', 'BAD_BASE64'],
  ['engine', 'bAQ-_', 'BAD_BASE64'],
  ['engine', 'bAQID BA==', 'BAD_BASE64'],
  ['engine', '4' + 'x'.repeat(MAX), 'TOO_LARGE'],
  ['engine', 'b' + 'A'.repeat(MAX), 'TOO_LARGE'],
  // polling payloads
  ['payload', '', 'EMPTY'],
  ['payload', '\x1e', 'EMPTY'],
  ['payload', '42["a"]\x1e', 'EMPTY'],
  ['payload', '42["a"]\x1e9', 'UNKNOWN_TYPE'],
  ['payload', '2\x1eb@@@@', 'BAD_BASE64'],
  ['payload', '42["a"]\x1e'.repeat(200), 'TOO_LARGE'],
  // Socket.IO packets
  ['socket', '', 'EMPTY'],
  ['socket', '9', 'UNKNOWN_TYPE'],
  ['socket', '7["a"]', 'UNKNOWN_TYPE'],
  ['socket', 'a', 'UNKNOWN_TYPE'],
  ['socket', ' 2["a"]', 'UNKNOWN_TYPE'],
  ['socket', '-1', 'UNKNOWN_TYPE'],
  ['socket', '2/mimo', 'BAD_PAYLOAD'],
  ['socket', '2/mimo,', 'BAD_PAYLOAD'],
  ['socket', '2/mimo["a"]', 'BAD_PAYLOAD'],
  ['socket', '2{}', 'BAD_PAYLOAD'],
  ['socket', '2[]', 'BAD_PAYLOAD'],
  ['socket', '2[{}]', 'BAD_PAYLOAD'],
  ['socket', '2[true]', 'BAD_PAYLOAD'],
  ['socket', '2["disconnect"]', 'BAD_PAYLOAD'],
  ['socket', '2"hello"', 'BAD_PAYLOAD'],
  ['socket', '3{"a":1}', 'BAD_PAYLOAD'],
  ['socket', '3', 'BAD_PAYLOAD'],
  ['socket', '1{}', 'BAD_PAYLOAD'],
  ['socket', '1/mimo,[]', 'BAD_PAYLOAD'],
  ['socket', '0[]', 'BAD_PAYLOAD'],
  ['socket', '0"token"', 'BAD_PAYLOAD'],
  ['socket', '0/mimo,null', 'BAD_PAYLOAD'],
  ['socket', '4', 'BAD_PAYLOAD'],
  ['socket', '4[]', 'BAD_PAYLOAD'],
  ['socket', '4/nsp,42', 'BAD_PAYLOAD'],
  ['socket', '2["a"', 'BAD_JSON'],
  ['socket', '2["a",{"b":1]', 'BAD_JSON'],
  ['socket', '0/mimo,{"token":"x"', 'BAD_JSON'],
  ['socket', "2['a']", 'BAD_JSON'],
  ['socket', '2["a"]]', 'BAD_JSON'],
  ['socket', '2["a",]', 'BAD_JSON'],
  ['socket', '2[NaN]', 'BAD_JSON'],
  ['socket', '2 ["a"]', 'BAD_JSON'],
  ['socket', '2\n["a"]', 'BAD_JSON'],
  ['socket', '0mimo,{}', 'BAD_JSON'],
  ['socket', '2-1["a"]', 'BAD_JSON'],
  ['socket', '2' + '1'.repeat(30) + '["a"]', 'BAD_ID'],
  ['socket', '3/mimo,' + '9'.repeat(17) + '[]', 'BAD_ID'],
  ['socket', '39007199254740993[]', 'BAD_ID'],
  ['socket', '2/mi\u0001mo,["a"]', 'BAD_NAMESPACE'],
  ['socket', '0/\u007f', 'BAD_NAMESPACE'],
  ['socket', '5-', 'BAD_ATTACHMENTS'],
  ['socket', '5', 'BAD_ATTACHMENTS'],
  ['socket', '6[]', 'BAD_ATTACHMENTS'],
  ['socket', '50-["a"]', 'BAD_ATTACHMENTS'],
  ['socket', '5x-["a"]', 'BAD_ATTACHMENTS'],
  ['socket', '5+1-["a"]', 'BAD_ATTACHMENTS'],
  ['socket', '51["a"]', 'BAD_ATTACHMENTS'],
  ['socket', '51-[', 'BAD_JSON'],
  ['socket', '51-', 'BAD_PAYLOAD'],
  ['socket', '51-{}', 'BAD_PAYLOAD'],
  ['socket', '511-["a"]', 'TOO_MANY_ATTACHMENTS'],
  ['socket', '6999999999999999999999-[]', 'TOO_MANY_ATTACHMENTS'],
  // Engine.IO frames carrying Socket.IO packets
  ['frame', '', 'EMPTY'],
  ['frame', '4', 'EMPTY'],
  ['frame', '4abc', 'UNKNOWN_TYPE'],
  ['frame', '49', 'UNKNOWN_TYPE'],
  ['frame', '42{}', 'BAD_PAYLOAD'],
  ['frame', '42abc[', 'BAD_JSON'],
  ['frame', '42/mimo,7["browser_action",{]', 'BAD_JSON'],
  ['frame', '42/mimo,' + '7'.repeat(30) + '["browser_action"]', 'BAD_ID'],
  ['frame', '45-', 'BAD_ATTACHMENTS'],
  ['frame', '451-[', 'BAD_JSON'],
  ['frame', '4' + '2["' + 'x'.repeat(MAX) + '"]', 'TOO_LARGE'],
  // binary packets and their attachments
  ['binary', `51-["a",${P}0}]`, 'BAD_ATTACHMENTS', 0],
  ['binary', `51-["a",${P}0}]`, 'BAD_ATTACHMENTS', 2],
  ['binary', `51-["a",${P}1}]`, 'BAD_ATTACHMENTS', 1],
  ['binary', `51-["a",${P}-1}]`, 'BAD_ATTACHMENTS', 1],
  ['binary', `51-["a",${P}"0"}]`, 'BAD_ATTACHMENTS', 1],
  ['binary', `52-["a",${P}0},{"deep":[${P}2}]}]`, 'BAD_ATTACHMENTS', 2],
  ['binary', `61-/mimo,3[${P}0.5}]`, 'BAD_ATTACHMENTS', 1],
  ['binary', `51-[${P}0}]`, 'BAD_PAYLOAD', 1],
];

function decodeAs(layer: Layer, input: string, bufferCount = 0): unknown {
  switch (layer) {
    case 'engine':
      return decodeEnginePacket(input, MAX);
    case 'payload':
      return decodeEnginePayload(input, MAX);
    case 'socket':
      return decodeSocketPacket(input);
    case 'frame': {
      const packet = decodeEnginePacket(input, MAX);
      if (packet.type === 'error') return packet;
      if (packet.type !== 'message') throw new Error(`corpus frame ${JSON.stringify(input)} is not a message`);
      if (typeof packet.data !== 'string') return decodeSocketPacket('');
      return decodeSocketPacket(packet.data);
    }
    case 'binary': {
      const head = decodeSocketPacket(input);
      if (head.type === 'error') return head;
      const buffers = Array.from({ length: bufferCount }, (_, i) => new Uint8Array([i]));
      return reconstructBinaryPacket(head, buffers);
    }
  }
}

const s = suite('malformed corpus');

s('holds enough cases', () => {
  assert.ok(CORPUS.length >= 40, `${CORPUS.length} entries`);
});

s('every entry decodes to its CodecError without throwing', () => {
  for (const [layer, input, code, buffers] of CORPUS) {
    const label = `${layer} ${JSON.stringify(input.length > 60 ? input.slice(0, 60) + '…' : input)}`;
    let result: unknown;
    try {
      result = decodeAs(layer, input, buffers);
    } catch (error) {
      assert.unreachable(`${label} threw ${String(error)}`);
    }
    const error = result as CodecError;
    assert.is(error.type, 'error', `${label} decoded to ${JSON.stringify(result)}`);
    assert.is(error.code, code, `${label}: ${error.message}`);
    assert.type(error.message, 'string');
    assert.ok(error.message.length > 0, label);
  }
});

s('non-string input to the string decoders is an error, not a throw', () => {
  for (const bad of [undefined, null, 42, {}, ['4']]) {
    assert.is((decodeSocketPacket(bad as unknown as string) as CodecError).type, 'error');
    assert.is((decodeEnginePayload(bad as unknown as string, MAX) as CodecError).type, 'error');
    assert.is((decodeEnginePacket(bad as unknown as string) as CodecError).type, 'error');
  }
});

s.run();
