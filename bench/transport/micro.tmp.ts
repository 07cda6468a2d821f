import { decodeSocketPacket, encodeSocketPacket, SocketPacketType } from '../../transport/codec/index.ts';
import { IncomingPluginMessageSchema, validate, browserActionFrame } from '../../transport/contracts/index.ts';
const N = 200_000;
function time(name: string, fn: () => unknown) {
  for (let i = 0; i < 20_000; i++) fn();
  const t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) fn();
  console.log(name.padEnd(30), (Number(process.hrtime.bigint() - t) / N / 1000).toFixed(3), 'µs');
}
const result = { v: 1, type: 'browser_action_result', actionId: 'act-bench-plugin-3-12345', taskId: '01JD0000000000000000000000', clientId: 'bench-plugin-3', status: 'success', result: { clicked: true, strategy: 'cdp_mouse' } };
const resultWire = '2/mimo,' + JSON.stringify(['plugin_message', result]);
const ackWire = '3/mimo,12345[{"ok":true}]';
const frame = browserActionFrame({ actionId: 'act-1234', taskId: '01JD0000000000000000000000', clientId: 'bench-plugin-3', timestamp: Date.now(), actionName: 'browser_click', params: { tabId: 1, clickId: 1 }, timeoutMs: 5_000 });
time('decode result', () => decodeSocketPacket(resultWire));
time('decode ack', () => decodeSocketPacket(ackWire));
time('JSON.parse result', () => JSON.parse(resultWire.slice(7)));
time('encode action', () => encodeSocketPacket({ type: SocketPacketType.EVENT, nsp: '/mimo', id: 7, data: ['plugin_message', frame] }));
time('JSON.stringify action', () => JSON.stringify(['plugin_message', frame]));
time('validate result', () => validate(IncomingPluginMessageSchema, result, 'SCHEMA_VALIDATION_FAILED'));
