// get_artifact: run artifacts read back in base64 chunks of at most 256 KB with `complete`,
// offsets and limits, only MCP's own artifacts, and ARTIFACT_EXPIRED after the 24 h TTL.
import { createSystemClock } from '../../clock/index.ts';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startMcp, type McpHarness } from './mcp-harness.ts';

interface Ctx {
  h: McpHarness;
  skew: { ms: number };
  run: any;
}

const big = (seed: string) => Array.from({ length: 9000 }, (_, i) => `${seed} line ${i} — 茶壶 teapot`).join('\n'); // ~300 KB, multi-byte characters

const chunks = suite<Ctx>('get_artifact');

chunks.before(async (ctx) => {
  ctx.skew = { ms: 0 };
  ctx.h = await startMcp({
    pages: {
      'https://big1.test/': { title: 'Big one', text: big('one') },
      'https://big2.test/': { title: 'Big two', text: big('two') },
    },
    clock: { ...createSystemClock(), now: () => Date.now() + ctx.skew.ms },
  });
  ctx.run = await ctx.h.ok('run_task_template', {
    templateId: 'batch_extract_pages',
    inputs: { urls: ['https://big1.test/', 'https://big2.test/'], maxTextChars: 100 },
    options: { mode: 'sync' },
  });
});
chunks.after(async (ctx) => {
  await ctx.h.close();
});

chunks(
  'the inline result is bounded; the JSON artifact has everything, read in 256 KB chunks until complete',
  async ({ h, run }) => {
    assert.is(run.result.items[0].text.length, 100);
    assert.is(run.result.items[0].truncated, true);
    const json = run.artifacts.find((a: any) => a.type === 'json');
    assert.is(json.mimeType, 'application/json');
    assert.ok(json.size > 2 * 262144, `artifact only ${json.size} bytes`);
    const parts: Buffer[] = [];
    let offset = 0;
    let calls = 0;
    for (;;) {
      const chunk = await h.ok(
        'get_artifact',
        offset === 0 ? { artifactId: json.artifactId } : { artifactId: json.artifactId, offset },
      );
      calls++;
      assert.is(chunk.artifactId, json.artifactId);
      assert.is(chunk.size, json.size);
      assert.is(chunk.offset, offset);
      assert.ok(chunk.bytesReturned <= 262144);
      const bytes = Buffer.from(chunk.data, 'base64');
      assert.is(bytes.length, chunk.bytesReturned);
      parts.push(bytes);
      offset += chunk.bytesReturned;
      if (chunk.complete) break;
      assert.is(chunk.bytesReturned, 262144, 'a chunk that is not the last one is full');
    }
    assert.is(calls, Math.ceil(json.size / 262144));
    const whole = JSON.parse(Buffer.concat(parts).toString('utf8'));
    assert.is(whole.items.length, 2);
    assert.match(whole.items[1].text, /two line 8999 — 茶壶 teapot$/);
    assert.is(whole.items[0].text, big('one'));
  },
);

chunks('limit and offset: small windows, clamped to 256 KB, end of file, past the end', async ({ h, run }) => {
  const csv = run.artifacts.find((a: any) => a.type === 'csv');
  const first = await h.ok('get_artifact', { artifactId: csv.artifactId, limit: 10 });
  assert.is(Buffer.from(first.data, 'base64').toString(), 'url,succes');
  assert.is(first.complete, false);
  const json = run.artifacts.find((a: any) => a.type === 'json');
  const clamped = await h.ok('get_artifact', { artifactId: json.artifactId, limit: 10_000_000 });
  assert.is(clamped.bytesReturned, 262144);
  const end = await h.ok('get_artifact', { artifactId: csv.artifactId, offset: csv.size });
  assert.equal([end.bytesReturned, end.complete, end.data], [0, true, '']);
  const tail = await h.ok('get_artifact', { artifactId: csv.artifactId, offset: csv.size - 1 });
  assert.is(Buffer.from(tail.data, 'base64').toString(), '\n');
  assert.is(tail.complete, true);
  const past = await h.fail('get_artifact', { artifactId: csv.artifactId, offset: csv.size + 1 });
  assert.is(past.errorCode, 'INVALID_PARAMETER');
  assert.is((await h.fail('get_artifact', { artifactId: csv.artifactId, offset: -1 })).errorCode, 'INVALID_PARAMETER');
});

chunks('only MCP artifacts: unknown ids and artifacts of chat tasks are ARTIFACT_NOT_FOUND', async ({ h }) => {
  assert.is(
    (await h.fail('get_artifact', { artifactId: 'art-doesnotexist000000000' })).errorCode,
    'ARTIFACT_NOT_FOUND',
  );
  const chat = await h.runtime.server.artifacts.putArtifact({
    taskId: '01ARZ3NDEKTSV4RRFFQ69G5FAV',
    kind: 'readability',
    contentType: 'text/plain',
    bytes: 'private page text',
  });
  const refused = await h.fail('get_artifact', { artifactId: chat.artifactId });
  assert.is(refused.errorCode, 'ARTIFACT_NOT_FOUND');
  assert.type(refused.recoverHint, 'string');
});

chunks('24 h after the run ended the artifacts are ARTIFACT_EXPIRED', async (ctx) => {
  const json = ctx.run.artifacts[0];
  assert.ok(json.expiresAt - ctx.run.updatedAt >= 24 * 3600 * 1000 - 5000, 'TTL counted from the terminal state');
  ctx.skew.ms = 24 * 3600 * 1000 + 60_000;
  const expired = await ctx.h.fail('get_artifact', { artifactId: json.artifactId });
  assert.is(expired.errorCode, 'ARTIFACT_EXPIRED');
  ctx.skew.ms = 0;
});

chunks.run();
