import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createConnectionModel } from '../src/models/connection-model.ts';

const conn = suite('connection indicator');

conn('connecting -> connected -> reconnecting -> connected reports the reconnection', () => {
  const m = createConnectionModel();
  assert.is(m.status.value, 'connecting');
  assert.equal(m.apply({ type: 'connected' }), { reconnected: false });
  assert.is(m.label.value, 'Connected');
  m.apply({ type: 'disconnected', reason: 'transport close' });
  assert.is(m.status.value, 'reconnecting');
  m.apply({ type: 'reconnect_attempt', attempt: 2 });
  assert.is(m.label.value, 'Reconnecting (attempt 2)…');
  assert.equal(m.apply({ type: 'connected' }), { reconnected: true });
  assert.is(m.reconnects.value, 1);
  assert.is(m.attempt.value, 0);
});

conn('a refused token is offline with a hint; other errors keep trying', () => {
  const m = createConnectionModel();
  m.apply({ type: 'connect_error', message: 'xhr poll error' });
  assert.is(m.status.value, 'connecting');
  m.apply({ type: 'connect_error', code: 'UNAUTHORIZED', message: 'missing or wrong token' });
  assert.is(m.status.value, 'offline');
  assert.match(m.label.value, /token/);
});

conn('closing the page socket on purpose is offline, not reconnecting', () => {
  const m = createConnectionModel();
  m.apply({ type: 'connected' });
  m.apply({ type: 'disconnected', reason: 'io client disconnect' });
  assert.is(m.status.value, 'offline');
});

conn.run();
