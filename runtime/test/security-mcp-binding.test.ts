// browser-shell sessions are bound to the MCP client (MCP session id) that made them (issue 12):
// another client that names the same session_id can neither read nor steer its tab. Two real MCP
// SDK clients against one server.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startMcp, testPolicy } from '../mcp/test/mcp-harness.ts';

const PAGE = 'http://allowed.test/';

test("a second MCP client cannot use the first one's browser-shell session; its own sessions work", async () => {
  const h = await startMcp({
    pages: {
      [PAGE]: {
        title: 'Page',
        text: 'private text of client A',
        elements: [{ tag: 'input', type: 'text', name: 'q' }],
      },
    },
    policy: testPolicy({ allow_hosts: ['allowed.test'] }),
  });
  try {
    const b: Client = await h.connectClient();
    const shellB = async (sessionId: string, argv: string[]) => {
      const result = await b.callTool({ name: 'browser-shell', arguments: { session_id: sessionId, argv } });
      return JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as {
        exit_code: number;
        stdout: string;
        stderr: string;
      };
    };
    assert.is((await h.shell('mine', ['open', PAGE])).exit_code, 0);
    for (const argv of [['snapshot'], ['screenshot'], ['open', PAGE], ['close'], ['wait', '--text', 'private']]) {
      const reply = await shellB('mine', argv);
      assert.is(reply.exit_code, 1, argv.join(' '));
      assert.match(reply.stderr, /belongs to another MCP client/);
      assert.not.match(JSON.stringify(reply), /private text/);
    }
    const own = await h.shell('mine', ['snapshot']);
    assert.is(own.exit_code, 0);
    assert.match(own.data.text, /private text of client A/);
    assert.is((await shellB('theirs', ['open', PAGE])).exit_code, 0, 'B has sessions of its own');
    assert.is((await h.shell('theirs', ['snapshot'])).exit_code, 1, 'and A cannot use them either');
  } finally {
    await h.close();
  }
});

test.run();
