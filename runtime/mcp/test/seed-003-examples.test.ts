// Seed 003's own examples against the JSON Schemas Mimo publishes in tools/list (generated from
// the tools' zod definitions), with the SDK's own validator: every request example must be a valid
// input and every response example a valid output. Fields Mimo adds beyond the seed are optional,
// so a client written from the seed alone is never refused. The examples are read from the seed
// text itself (a copy of shared/seeds/003_*.txt kept in fixtures/contracts/seed-003.txt, so the
// test runs in a checkout without the shared folder), so a change of either side shows here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { startMcp, type McpHarness } from './mcp-harness.ts';

const seedsDir = new URL('../../../fixtures/contracts/', import.meta.url).pathname;
const seedFile = readdirSync(seedsDir).find((name) => name === 'seed-003.txt');

/** The JSON blocks of the seed, each with the tool named in its section and whether it is a request or a response. */
function seedExamples(): Array<{
  tool: string;
  kind: 'input' | 'output';
  label: string;
  value: Record<string, unknown>;
}> {
  const text = readFileSync(join(seedsDir, seedFile!), 'utf8');
  const out: Array<{ tool: string; kind: 'input' | 'output'; label: string; value: Record<string, unknown> }> = [];
  let tool = '';
  let kind: 'input' | 'output' = 'input';
  let label = '';
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{2,3} \d/.test(line)) tool = ''; // a new section: its examples belong to the tool it names
    const named = /新增工具：`([a-z_]+)`/.exec(line);
    if (named) tool = named[1]!;
    if (/^#+ .*请求|^请求/.test(line)) kind = 'input';
    if (/^#+ .*响应|^响应/.test(line)) kind = 'output';
    if (/^#+ |^响应|^请求/.test(line)) label = line.replace(/^#+\s*/, '');
    if (line.startsWith('```json') && tool) {
      const end = lines.indexOf('```', i + 1);
      const body = lines.slice(i + 1, end).join('\n');
      i = end;
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        continue; // an illustration with placeholders (e.g. "...base64...") that is not JSON
      }
      out.push({ tool, kind, label: `${tool} ${kind} (${label})`, value: value as Record<string, unknown> });
    }
  }
  return out;
}

const test = suite<{ h?: McpHarness }>('seed 003 examples against the published JSON Schemas');
test.after(async (ctx) => {
  await ctx.h?.close();
});

test('the seed file is there and has examples for all seven tools', () => {
  assert.ok(seedFile, `no seed-003.txt in ${seedsDir}`);
  const tools = new Set(seedExamples().map((e) => e.tool));
  assert.equal([...tools].sort(), [
    'cancel_task_run',
    'get_artifact',
    'get_runtime_profile',
    'get_task_run',
    'list_task_runs',
    'list_task_templates',
    'run_task_template',
  ]);
});

test('every request example is a valid input and every response example a valid output', async (ctx) => {
  const h = (ctx.h = await startMcp());
  const { tools } = await h.client.listTools();
  const validator = new AjvJsonSchemaValidator();
  const failures: string[] = [];
  const examples = seedExamples();
  assert.ok(examples.length >= 14, `only ${examples.length} examples parsed`);
  for (const example of examples) {
    const tool = tools.find((t) => t.name === example.tool);
    if (!tool) {
      failures.push(`${example.label}: no such tool in tools/list`);
      continue;
    }
    const schema = example.kind === 'input' ? tool.inputSchema : tool.outputSchema;
    const result = validator.getValidator(schema as never)(example.value);
    if (!result.valid) failures.push(`${example.label}: ${result.errorMessage}`);
  }
  assert.equal(failures, [], failures.join('\n'));
});

test.run();
