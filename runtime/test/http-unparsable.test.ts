// What @hono/node-server cannot turn into a Request never reaches the root app and its gate
// middleware: it still gets the gate's 400 envelope (root-app.ts `unparsableRequest`) and a
// `request_refused` log line; what it can parse is judged by the gate middleware on the raw target.
import { connect } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startRuntime, type TestRuntime } from './util.ts';

const test = suite<{ rt: TestRuntime; port: number }>('http: unparsable requests', { rt: undefined as never, port: 0 });

test.before(async (ctx) => {
  ctx.rt = await startRuntime({ config: { token: 'unparsable-token-123456' } });
  ctx.port = Number(new URL(ctx.rt.server.url).port);
});
test.after(async (ctx) => {
  await ctx.rt.close();
});

/** One request written by hand (Node's http client would refuse to send these). */
function raw(port: number, requestLine: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`${requestLine}\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    );
    let out = '';
    socket.on('data', (chunk) => (out += chunk));
    socket.on('error', reject);
    socket.on('close', () =>
      resolve({ status: Number(out.split(' ')[1]), body: out.slice(out.indexOf('\r\n\r\n') + 4) }),
    );
  });
}

const reasonOf = (body: string) =>
  (JSON.parse(body) as { error: { details: { reason: string } } }).error.details.reason;

test('a Host that is no host name, a target that is no path: 400 envelopes, logged', async ({ rt, port }) => {
  const cases: Array<[string, string, string]> = [
    ['GET /api/task/list HTTP/1.1', `evil.example@localhost:${port}`, 'host_malformed'],
    ['GET * HTTP/1.1', `localhost:${port}`, 'malformed_target'],
    ['GET /api/x\\y HTTP/1.1', `localhost:${port}`, 'malformed_target'],
    [`GET http://evil.example/api/task/list HTTP/1.1`, `localhost:${port}`, 'malformed_target'],
    ['GET /api/task/list%zz HTTP/1.1', `localhost:${port}`, 'malformed_path'],
  ];
  for (const [line, host, reason] of cases) {
    const res = await raw(port, line, host);
    assert.is(res.status, 400, line);
    assert.is(reasonOf(res.body), reason, line);
  }
  const refused = rt.logs.filter((entry) => entry.event === 'request_refused');
  assert.equal(
    refused.map((entry) => entry.reason),
    cases.map(([, , reason]) => reason),
  );
});

test.run();
