// readTaskArtifactText: the page text stored as an artifact is read back only for the task that
// stored it (the agent's page read and MCP's page driver both call it with the artifactId the
// extension reported), on the real artifact service over a folder.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { makeHarness, type Harness } from '../../artifacts/test/util.ts';
import { readTaskArtifactText } from '../task-artifact-text.ts';

const test = suite<{ h: Harness }>('task artifact text', { h: undefined as never });
test.before.each(async (ctx) => {
  ctx.h = await makeHarness();
});
test.after.each(async (ctx) => {
  await ctx.h.remove();
});

const TASK_A = '01JD00000000000000000000AA';
const TASK_B = '01JD00000000000000000000BB';

test('the task that stored the text reads it back whole', async ({ h }) => {
  const text = `# Title\n\n${'a long page. '.repeat(30_000)}`;
  const stored = await h.service.putArtifact({
    taskId: TASK_A,
    kind: 'readability',
    contentType: 'text/markdown',
    bytes: text,
  });
  assert.equal(await readTaskArtifactText(h.service, TASK_A, stored.artifactId), { ok: true, text });
});

test("another task's artifact is refused, its text never returned", async ({ h }) => {
  const stored = await h.service.putArtifact({
    taskId: TASK_A,
    kind: 'readability',
    contentType: 'text/markdown',
    bytes: 'secret page of task A',
  });
  const read = await readTaskArtifactText(h.service, TASK_B, stored.artifactId);
  assert.is(read.ok, false);
  assert.not.match(JSON.stringify(read), /secret page/);
  assert.match((read as { reason: string }).reason, /belongs to another task/);
});

test('an unknown or malformed artifact id is a refusal, not a throw', async ({ h }) => {
  for (const id of ['art-doesnotexist000000', '../../etc/passwd', '']) {
    const read = await readTaskArtifactText(h.service, TASK_A, id);
    assert.is(read.ok, false, id);
    assert.match((read as { reason: string }).reason, /could not be read back/);
  }
});

test.run();
