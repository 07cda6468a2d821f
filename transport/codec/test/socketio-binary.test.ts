import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { reconstructBinaryPacket } from '../socketio-binary.ts';
import { decodeSocketPacket, encodeSocketPacket } from '../socketio-codec.ts';
import { SocketPacketType as T, type SocketPacket } from '../socketio-packet.ts';
import { toPlain } from './plain-value.ts';
import { createRandom } from './seeded-random.ts';
import { randomSocketPacket } from './sample-packets.ts';

const bytes = (...values: number[]) => new Uint8Array(values);
const codeOf = (value: unknown) => (value as { code?: string }).code;

function decodeWithBuffers(string: string, buffers: Uint8Array[]): SocketPacket | { code: string } {
  const head = decodeSocketPacket(string);
  if (head.type === 'error') return head;
  return reconstructBinaryPacket(head, buffers) as SocketPacket;
}

const encode = suite('socketio binary encode');

encode('a buffer turns an EVENT into BINARY_EVENT with a placeholder', () => {
  const buffer = bytes(1, 2, 3);
  const [string, ...buffers] = encodeSocketPacket({ type: T.EVENT, nsp: '/', data: ['bin', buffer] });
  assert.is(string, '51-["bin",{"_placeholder":true,"num":0}]');
  assert.is(buffers.length, 1);
  assert.is(buffers[0], buffer);
});

encode('ACK with buffers becomes BINARY_ACK, keeping namespace and id', () => {
  const [string, ...buffers] = encodeSocketPacket({
    type: T.ACK,
    nsp: '/mimo',
    id: 9,
    data: [{ shot: bytes(7) }, 'ok'],
  });
  assert.is(string, '61-/mimo,9[{"shot":{"_placeholder":true,"num":0}},"ok"]');
  assert.equal(buffers, [bytes(7)]);
});

encode('several nested buffers are numbered depth-first in order', () => {
  const a = bytes(1);
  const b = bytes(2);
  const c = bytes(3);
  const [string, ...buffers] = encodeSocketPacket({
    type: T.EVENT,
    nsp: '/mimo',
    id: 3,
    data: ['upload', { a, list: [b, { deep: { c } }] }],
  });
  assert.is(
    string,
    '53-/mimo,3["upload",{"a":{"_placeholder":true,"num":0},"list":[{"_placeholder":true,"num":1},{"deep":{"c":{"_placeholder":true,"num":2}}}]}]',
  );
  assert.equal(buffers, [a, b, c]);
});

encode('Buffer, ArrayBuffer and other views all travel as Uint8Array of their own bytes', () => {
  const backing = bytes(0, 1, 2, 3, 4, 5);
  const [string, ...buffers] = encodeSocketPacket({
    type: T.EVENT,
    nsp: '/',
    data: ['kinds', Buffer.from([9]), backing.buffer.slice(1, 3), new DataView(backing.buffer, 4, 2)],
  });
  assert.is(string.slice(0, 3), '53-');
  assert.ok(buffers.every((buffer) => buffer instanceof Uint8Array));
  assert.equal(
    buffers.map((buffer) => [...buffer]),
    [[9], [1, 2], [4, 5]],
  );
});

encode('data without buffers stays a plain EVENT / ACK even if typed BINARY_*', () => {
  assert.equal(encodeSocketPacket({ type: T.BINARY_EVENT, nsp: '/', data: ['a', 1] }), ['2["a",1]']);
  assert.equal(encodeSocketPacket({ type: T.BINARY_ACK, nsp: '/', id: 1, data: [] }), ['31[]']);
});

encode('toJSON is followed like socket.io-parser does, Date is left to JSON', () => {
  const custom = { toJSON: () => ({ payload: bytes(5) }) };
  const when = new Date(0);
  const [string, ...buffers] = encodeSocketPacket({ type: T.EVENT, nsp: '/', data: ['x', custom, when] });
  assert.is(string, '51-["x",{"payload":{"_placeholder":true,"num":0}},"1970-01-01T00:00:00.000Z"]');
  assert.equal(buffers, [bytes(5)]);
});

encode('only own keys are searched for buffers (inherited ones are not sent), at any depth and array position', () => {
  const inherited = Object.create({ shot: bytes(1) }) as Record<string, unknown>;
  inherited.own = 1;
  assert.is(encodeSocketPacket({ type: T.EVENT, nsp: '/', data: ['x', inherited] })[0], '2["x",{"own":1}]');
  const deep = ['x', [1, [2, { a: [null, { b: bytes(9) }] }]]];
  assert.is(
    encodeSocketPacket({ type: T.EVENT, nsp: '/', data: deep })[0],
    '51-["x",[1,[2,{"a":[null,{"b":{"_placeholder":true,"num":0}}]}]]]',
  );
  const sparse = ['x', [, , bytes(5)]];
  assert.is(
    encodeSocketPacket({ type: T.EVENT, nsp: '/', data: sparse })[0],
    '51-["x",[null,null,{"_placeholder":true,"num":0}]]',
  );
});

encode('the input packet is left untouched', () => {
  const data = ['bin', { file: bytes(1) }];
  encodeSocketPacket({ type: T.EVENT, nsp: '/', data });
  assert.ok((data[1] as { file: unknown }).file instanceof Uint8Array);
});

encode.run();

const decode = suite('socketio binary decode and reconstruct');

decode('decode keeps placeholders and reports the attachments count', () => {
  assert.equal(decodeSocketPacket('51-["bin",{"_placeholder":true,"num":0}]'), {
    type: T.BINARY_EVENT,
    nsp: '/',
    attachments: 1,
    data: ['bin', { _placeholder: true, num: 0 }],
  });
  assert.equal(decodeSocketPacket('62-/mimo,4[{"_placeholder":true,"num":1},{"_placeholder":true,"num":0}]'), {
    type: T.BINARY_ACK,
    nsp: '/mimo',
    attachments: 2,
    id: 4,
    data: [
      { _placeholder: true, num: 1 },
      { _placeholder: true, num: 0 },
    ],
  });
});

decode('reconstruct puts buffers back and returns EVENT / ACK without attachments', () => {
  const a = bytes(1);
  const b = bytes(2);
  assert.equal(
    decodeWithBuffers('52-/mimo,3["up",{"x":[{"_placeholder":true,"num":1}]},{"_placeholder":true,"num":0}]', [a, b]),
    {
      type: T.EVENT,
      nsp: '/mimo',
      id: 3,
      data: ['up', { x: [b] }, a],
    },
  );
  const ack = decodeWithBuffers('61-[{"_placeholder":true,"num":0}]', [a]) as SocketPacket;
  assert.is(ack.type, T.ACK);
  assert.is((ack.data as unknown[])[0], a);
  assert.not.ok('attachments' in ack);
});

decode('wrong buffer count is BAD_ATTACHMENTS', () => {
  const head = decodeSocketPacket(
    '52-["a",{"_placeholder":true,"num":0},{"_placeholder":true,"num":1}]',
  ) as SocketPacket;
  assert.is(codeOf(reconstructBinaryPacket(head, [bytes(1)])), 'BAD_ATTACHMENTS');
  assert.is(codeOf(reconstructBinaryPacket(head, [bytes(1), bytes(2), bytes(3)])), 'BAD_ATTACHMENTS');
  assert.is(codeOf(reconstructBinaryPacket(head, [])), 'BAD_ATTACHMENTS');
});

decode('a placeholder num outside the buffers is BAD_ATTACHMENTS', () => {
  for (const num of ['1', '-1', '0.5', '"0"', 'null', 'true', '1e400']) {
    const head = decodeSocketPacket(`51-["a",{"_placeholder":true,"num":${num}}]`) as SocketPacket;
    assert.is(codeOf(reconstructBinaryPacket(head, [bytes(1)])), 'BAD_ATTACHMENTS', num);
  }
  const missing = decodeSocketPacket('51-["a",{"_placeholder":true}]') as SocketPacket;
  assert.is(codeOf(reconstructBinaryPacket(missing, [bytes(1)])), 'BAD_ATTACHMENTS');
});

decode('non-binary packets and non-Uint8Array buffers are BAD_ATTACHMENTS', () => {
  assert.is(codeOf(reconstructBinaryPacket({ type: T.EVENT, nsp: '/', data: ['a'] }, [])), 'BAD_ATTACHMENTS');
  const head = decodeSocketPacket('51-["a",{"_placeholder":true,"num":0}]') as SocketPacket;
  assert.is(codeOf(reconstructBinaryPacket(head, ['x' as unknown as Uint8Array])), 'BAD_ATTACHMENTS');
});

decode('reconstruct does not modify the decoded packet', () => {
  const head = decodeSocketPacket('51-["a",{"_placeholder":true,"num":0}]') as SocketPacket;
  reconstructBinaryPacket(head, [bytes(1)]);
  assert.equal(head.data, ['a', { _placeholder: true, num: 0 }]);
  assert.is(head.type, T.BINARY_EVENT);
});

decode('a "__proto__" key stays data, never a prototype', () => {
  const head = decodeSocketPacket('51-["a",{"__proto__":{"polluted":{"_placeholder":true,"num":0}}}]') as SocketPacket;
  const packet = reconstructBinaryPacket(head, [bytes(1)]) as SocketPacket;
  const holder = (packet.data as unknown[])[1] as Record<string, unknown>;
  assert.is(Object.getPrototypeOf(holder), Object.prototype);
  assert.ok(Object.prototype.hasOwnProperty.call(holder, '__proto__'));
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

decode('very deep nesting neither throws nor overflows the stack', () => {
  const depth = 200_000;
  const head = decodeSocketPacket(
    '51-["a",' + '['.repeat(depth) + '{"_placeholder":true,"num":0}' + ']'.repeat(depth) + ']',
  );
  assert.is(head.type, T.BINARY_EVENT, 'V8 parses deep JSON iteratively; reconstruct must cope as well');
  const packet = reconstructBinaryPacket(head as SocketPacket, [bytes(1)]) as SocketPacket;
  let node: unknown = (packet.data as unknown[])[1];
  for (let i = 0; i < depth; i++) node = (node as unknown[])[0];
  assert.equal(node, bytes(1));
});

decode('cyclic input terminates', () => {
  const cyclic: unknown[] = ['a'];
  cyclic.push(cyclic, { _placeholder: true, num: 0 });
  const packet = reconstructBinaryPacket({ type: T.BINARY_EVENT, nsp: '/', attachments: 1, data: cyclic }, [
    bytes(1),
  ]) as SocketPacket;
  const data = packet.data as unknown[];
  assert.is(data[1], data);
  assert.equal(data[2], bytes(1));
});

decode.run();

const roundTrip = suite('socketio binary round trips');

roundTrip('300 random binary packets survive encode, decode and reconstruct', () => {
  const random = createRandom(99);
  for (let i = 0; i < 300; i++) {
    const packet = randomSocketPacket(random, true);
    const [string, ...buffers] = encodeSocketPacket(packet);
    assert.ok(buffers.length >= 1 && buffers.length <= 9, string);
    const head = decodeSocketPacket(string);
    assert.is((head as SocketPacket).attachments, buffers.length, string);
    const rebuilt = reconstructBinaryPacket(head as SocketPacket, buffers);
    assert.equal(toPlain(rebuilt), toPlain(packet), string);
  }
});

roundTrip.run();
