import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeEnginePacket } from '../engineio-codec.ts';
import { decodeSocketPacket, encodeSocketPacket } from '../socketio-codec.ts';
import { isPacketValid, SocketPacketType as T, type SocketPacket } from '../socketio-packet.ts';
import { createRandom } from './seeded-random.ts';
import { randomSocketPacket } from './sample-packets.ts';

/** [packet, exact Socket.IO string] in both directions. */
const WIRE: Array<[SocketPacket, string]> = [
  [{ type: T.CONNECT, nsp: '/' }, '0'],
  [{ type: T.CONNECT, nsp: '/mimo', data: { token: 'x' } }, '0/mimo,{"token":"x"}'],
  [{ type: T.CONNECT, nsp: '/mimo', data: { sid: 'lv_VI97HAXpY6yYWAAAC' } }, '0/mimo,{"sid":"lv_VI97HAXpY6yYWAAAC"}'],
  [
    { type: T.CONNECT, nsp: '/', data: { token: 'x', clientType: 'frontend' } },
    '0{"token":"x","clientType":"frontend"}',
  ],
  [{ type: T.DISCONNECT, nsp: '/' }, '1'],
  [{ type: T.DISCONNECT, nsp: '/mimo' }, '1/mimo,'],
  [{ type: T.EVENT, nsp: '/', data: ['hello', 1] }, '2["hello",1]'],
  [{ type: T.EVENT, nsp: '/', data: [42, 'numeric event name'] }, '2[42,"numeric event name"]'],
  [
    { type: T.EVENT, nsp: '/mimo', id: 7, data: ['browser_action', { action: 'click', selector: '#go' }] },
    '2/mimo,7["browser_action",{"action":"click","selector":"#go"}]',
  ],
  [{ type: T.EVENT, nsp: '/', id: 0, data: ['ping'] }, '20["ping"]'],
  [{ type: T.ACK, nsp: '/mimo', id: 7, data: [{ ok: true }] }, '3/mimo,7[{"ok":true}]'],
  [{ type: T.ACK, nsp: '/', id: 12, data: [] }, '312[]'],
  [
    { type: T.CONNECT_ERROR, nsp: '/nsp', data: { message: 'Invalid namespace' } },
    '4/nsp,{"message":"Invalid namespace"}',
  ],
  [
    { type: T.CONNECT_ERROR, nsp: '/mimo', data: { message: 'unauthorized', data: { code: 'AUTH' } } },
    '4/mimo,{"message":"unauthorized","data":{"code":"AUTH"}}',
  ],
  [{ type: T.CONNECT_ERROR, nsp: '/', data: 'oops' }, '4"oops"'],
];

const wire = suite('socketio wire strings');

wire('encodes each packet to its exact string', () => {
  for (const [packet, string] of WIRE) assert.equal(encodeSocketPacket(packet), [string]);
});

wire('decodes each string to its packet', () => {
  for (const [packet, string] of WIRE) assert.equal(decodeSocketPacket(string), packet, string);
});

wire('inside Engine.IO message frames they read 4 + packet', () => {
  const frame = (packet: SocketPacket) =>
    encodeEnginePacket({ type: 'message', data: encodeSocketPacket(packet)[0] }, true);
  assert.is(frame({ type: T.EVENT, nsp: '/', data: ['hello', 1] }), '42["hello",1]');
  assert.is(
    frame({ type: T.EVENT, nsp: '/mimo', id: 7, data: ['browser_action', { a: 1 }] }),
    '42/mimo,7["browser_action",{"a":1}]',
  );
  assert.is(
    frame({ type: T.CONNECT_ERROR, nsp: '/nsp', data: { message: 'Invalid namespace' } }),
    '44/nsp,{"message":"Invalid namespace"}',
  );
  assert.is(frame({ type: T.CONNECT, nsp: '/mimo', data: { token: 'x' } }), '40/mimo,{"token":"x"}');
});

wire('a namespace without a comma runs to the end of the packet', () => {
  assert.equal(decodeSocketPacket('0/mimo'), { type: T.CONNECT, nsp: '/mimo' });
  assert.equal(decodeSocketPacket('1/a/b'), { type: T.DISCONNECT, nsp: '/a/b' });
});

wire('encoding drops an empty or "/" namespace, and nulls', () => {
  assert.equal(encodeSocketPacket({ type: T.EVENT, nsp: '', data: ['a'] }), ['2["a"]']);
  assert.equal(encodeSocketPacket({ type: T.CONNECT, nsp: '/', data: null }), ['0']);
});

wire.run();

const rules = suite('socketio decode rules');

const code = (input: string, limits?: { maxAttachments?: number }) =>
  (decodeSocketPacket(input, limits) as { code?: string }).code;

rules('reserved event names are rejected as socket.io-parser does on decode', () => {
  for (const name of ['connect', 'connect_error', 'disconnect', 'disconnecting', 'newListener', 'removeListener']) {
    assert.is(code(`2["${name}"]`), 'BAD_PAYLOAD', name);
  }
  assert.equal(decodeSocketPacket('2["connected"]'), { type: T.EVENT, nsp: '/', data: ['connected'] });
});

rules('each type demands its data shape', () => {
  assert.is(code('0[]'), 'BAD_PAYLOAD');
  assert.is(code('0"x"'), 'BAD_PAYLOAD');
  assert.is(code('1{}'), 'BAD_PAYLOAD');
  assert.is(code('2{}'), 'BAD_PAYLOAD');
  assert.is(code('2[]'), 'BAD_PAYLOAD');
  assert.is(code('2[null]'), 'BAD_PAYLOAD');
  assert.is(code('2'), 'BAD_PAYLOAD');
  assert.is(code('3{}'), 'BAD_PAYLOAD');
  assert.is(code('37'), 'BAD_PAYLOAD');
  assert.is(code('4[]'), 'BAD_PAYLOAD');
  assert.is(code('4'), 'BAD_PAYLOAD');
  assert.is(code('4null'), 'BAD_PAYLOAD');
});

rules('ack ids up to 2^53 - 1, longer ones are BAD_ID', () => {
  assert.is((decodeSocketPacket('39007199254740991[]') as SocketPacket).id, 2 ** 53 - 1);
  assert.is(code('39007199254740992[]'), 'BAD_ID');
  assert.is(code('3' + '1'.repeat(30) + '[]'), 'BAD_ID');
  assert.is((decodeSocketPacket('3007[]') as SocketPacket).id, 7);
});

rules('attachments header: digits, at least one, at most maxAttachments (default 10)', () => {
  assert.is((decodeSocketPacket('510-["a"]') as SocketPacket).attachments, 10);
  assert.is(code('511-["a"]'), 'TOO_MANY_ATTACHMENTS');
  assert.is(code('53-["a"]', { maxAttachments: 2 }), 'TOO_MANY_ATTACHMENTS');
  assert.is((decodeSocketPacket('52-["a"]', { maxAttachments: 2 }) as SocketPacket).attachments, 2);
  assert.is(code('5' + '9'.repeat(40) + '-["a"]'), 'TOO_MANY_ATTACHMENTS');
  assert.is(code('50-["a"]'), 'BAD_ATTACHMENTS');
  assert.is(code('5-["a"]'), 'BAD_ATTACHMENTS');
  assert.is(code('5["a"]'), 'BAD_ATTACHMENTS');
  assert.is(code('5a-["a"]'), 'BAD_ATTACHMENTS');
});

rules('the attachments limit is checked before the JSON is parsed', () => {
  assert.is(code('599-[not json'), 'TOO_MANY_ATTACHMENTS');
});

rules('control characters in a namespace are BAD_NAMESPACE', () => {
  assert.is(code('0/mi\u0000mo,{}'), 'BAD_NAMESPACE');
  assert.is(code('2/a\nb,["x"]'), 'BAD_NAMESPACE');
});

rules(
  'every control character (U+0000-U+001F, U+007F) anywhere in a namespace is BAD_NAMESPACE; U+0080 and U+0020 are not',
  () => {
    for (let c = 0; c < 0x20; c++) {
      assert.is(code(`2/${String.fromCharCode(c)}mimo,["x"]`), 'BAD_NAMESPACE', `U+${c.toString(16)} first`);
      assert.is(code(`2/mimo${String.fromCharCode(c)},["x"]`), 'BAD_NAMESPACE', `U+${c.toString(16)} last`);
    }
    assert.is(code('2/mi\u007fmo,["x"]'), 'BAD_NAMESPACE');
    assert.equal(decodeSocketPacket('2/mi\u0080 mo,["x"]'), { type: T.EVENT, nsp: '/mi\u0080 mo', data: ['x'] });
  },
);

rules('data must follow the header directly', () => {
  assert.is(code('2 ["a"]'), 'BAD_JSON');
  assert.is(code('2/mimo,\t["a"]'), 'BAD_JSON');
  // Every character JavaScript's \s matches, after a namespace and after an ack id.
  for (const space of [
    ' ',
    '\t',
    '\n',
    '\v',
    '\f',
    '\r',
    '\u00a0',
    '\u1680',
    '\u2000',
    '\u200a',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u205f',
    '\u3000',
    '\ufeff',
  ]) {
    assert.is(code(`2/mimo,${space}["a"]`), 'BAD_JSON', JSON.stringify(space));
    assert.is(code(`3/mimo,7${space}[1]`), 'BAD_JSON', JSON.stringify(space));
  }
});

rules.run();

const valid = suite('isPacketValid');

valid('accepts what decode produces and the packets we send', () => {
  for (const [packet] of WIRE) assert.ok(isPacketValid(packet), JSON.stringify(packet));
  assert.ok(
    isPacketValid({ type: T.BINARY_EVENT, nsp: '/', attachments: 1, data: ['a', { _placeholder: true, num: 0 }] }),
  );
  assert.ok(isPacketValid({ type: T.EVENT, nsp: '/', data: ['a', new Uint8Array(1)] }));
});

valid('rejects bad shapes', () => {
  const bad: unknown[] = [
    { type: T.CONNECT, nsp: '/', data: [] },
    { type: T.CONNECT, nsp: 7 },
    { type: T.DISCONNECT, nsp: '/', data: {} },
    { type: T.EVENT, nsp: '/', data: [] },
    { type: T.EVENT, nsp: '/', data: ['disconnect'] },
    { type: T.EVENT, nsp: '/', data: ['a'], id: -1 },
    { type: T.EVENT, nsp: '/', data: ['a'], id: 1.5 },
    { type: T.ACK, nsp: '/', data: {} },
    { type: T.CONNECT_ERROR, nsp: '/' },
    { type: T.BINARY_EVENT, nsp: '/', data: ['a'], attachments: 0 },
    { type: T.EVENT, nsp: '/', data: ['a'], attachments: 1 },
    { type: 7, nsp: '/', data: ['a'] },
    null,
  ];
  for (const packet of bad) assert.not.ok(isPacketValid(packet as SocketPacket), JSON.stringify(packet));
});

valid.run();

const roundTrip = suite('socketio round trips');

roundTrip('500 random text packets decode to what was encoded', () => {
  const random = createRandom(2024);
  for (let i = 0; i < 500; i++) {
    const packet = randomSocketPacket(random);
    const [string, ...buffers] = encodeSocketPacket(packet);
    assert.is(buffers.length, 0);
    const decoded = decodeSocketPacket(string);
    assert.equal(decoded, packet, string);
    assert.ok(isPacketValid(decoded as SocketPacket));
  }
});

roundTrip.run();
