// Every file in fixtures/contracts/ validates against the schema its name maps to, and parsing
// keeps every field (v.object strips unknown keys, so a dropped field means a schema gap).
import { readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import * as c from '../index.ts';

const fixturesDir = new URL('../../../fixtures/contracts/', import.meta.url);

const schemaByFixture: Record<string, v.GenericSchema> = {
  'http-error-envelope.json': c.ErrorEnvelopeSchema,
  'http-ok-envelope.json': c.envelopeSchema(v.record(v.string(), v.unknown())),
  'http-task-id-response.json': c.envelopeSchema(c.TaskIdResponseSchema),
  'http-task-list-response.json': c.envelopeSchema(c.TaskListResponseSchema),
  'http-task-detail-response.json': c.envelopeSchema(c.TaskDetailSchema),
  'http-snapshot-response.json': c.envelopeSchema(c.SnapshotResponseSchema),
  'http-extension-registration-request.json': c.ExtensionRegistrationSchema,
  'http-extension-registration-response.json': c.envelopeSchema(c.ExtensionRegisteredResponseSchema),
  'http-extension-list-response.json': c.envelopeSchema(c.ExtensionListResponseSchema),
  'page-bridge-client-info-payload.json': c.PluginClientInfoSchema,
  'http-artifact-presign-request.json': c.ArtifactPresignRequestSchema,
  'http-artifact-presign-response.json': c.envelopeSchema(c.ArtifactPresignResponseSchema),
  'frontend-message-user-message.json': c.FrontendMessageSchema,
  'frontend-event-chat-delta.json': c.FrontendEventSchema,
  'frontend-event-snapshot-sync.json': c.FrontendEventSchema,
  'plugin-activate-extension.json': c.IncomingPluginMessageSchema,
  'plugin-full-state-sync.json': c.IncomingPluginMessageSchema,
  'plugin-tab-event-tab-updated.json': c.IncomingPluginMessageSchema,
  'plugin-browser-action-screenshot.json': c.ServerToPluginMessageSchema,
  'plugin-browser-action-ack.json': c.BrowserActionAckSchema,
  'plugin-browser-action-result-success.json': c.IncomingPluginMessageSchema,
  'plugin-browser-action-result-error.json': c.IncomingPluginMessageSchema,
  'plugin-browser-action-result-legacy.json': c.IncomingPluginMessageSchema,
  'tool-result-ok.json': c.ToolResultSchema,
  'tool-result-error.json': c.ToolResultSchema,
  'ours-frontend-message-select-extension.json': c.FrontendMessageSchema,
  'ours-frontend-event-tool-used.json': c.FrontendEventSchema,
  'ours-frontend-event-task-status.json': c.FrontendEventSchema,
  'ours-plugin-browser-action-click.json': c.ServerToPluginMessageSchema,
  'ours-plugin-takeover-report.json': c.IncomingPluginMessageSchema,
  'ours-plugin-overlay-command-resume.json': c.IncomingPluginMessageSchema,
  'ours-plugin-ui-state.json': c.ServerToPluginMessageSchema,
  'ours-socket-auth-plugin.json': c.SocketAuthSchema,
  'ours-plugin-full-state-sync-two-tabs.json': c.IncomingPluginMessageSchema,
};

const fixtureFiles = readdirSync(fixturesDir)
  .filter((name) => name.endsWith('.json'))
  .sort();
const load = (name: string): unknown => JSON.parse(readFileSync(new URL(name, fixturesDir), 'utf8'));

const files = suite('fixtures/contracts: inventory');

files('holds the 25 seed examples plus ours', () => {
  assert.is(fixtureFiles.filter((name) => !name.startsWith('ours-')).length, 25);
});

files('every fixture file has a schema', () => {
  const unmapped = fixtureFiles.filter((name) => !(name in schemaByFixture));
  assert.equal(unmapped, [], `fixtures without a schema in schemaByFixture: ${unmapped.join(', ')}`);
});

files('every mapped fixture exists', () => {
  const missing = Object.keys(schemaByFixture).filter((name) => !fixtureFiles.includes(name));
  assert.equal(missing, [], `mapped but missing: ${missing.join(', ')}`);
});

files.run();

const each = suite('fixtures/contracts: each file validates and keeps every field');

for (const name of fixtureFiles) {
  const schema = schemaByFixture[name];
  if (schema === undefined) continue; // reported by the inventory suite
  each(name, () => {
    const input = load(name);
    const result = c.validate(schema, input);
    if (!result.ok) assert.unreachable(`${name}: ${result.error.message}`);
    else assert.equal(result.value, input, `${name}: parsing dropped or changed a field`);
  });
}

each.run();

const meaning = suite('fixtures/contracts: parsed meaning');

meaning('the seed browser_action is a screenshot of tab 123 with a presigned upload URL', () => {
  const result = c.validate(c.ServerToPluginMessageSchema, load('plugin-browser-action-screenshot.json'));
  assert.ok(result.ok);
  if (!result.ok || result.value.type !== 'browser_action') return;
  assert.equal(c.unpackActionCall(result.value.action), { name: 'browser_screenshot', params: { tabId: 123 } });
});

meaning('the seed legacy result is told apart from the v1 result', () => {
  const legacy = c.validate(c.IncomingPluginMessageSchema, load('plugin-browser-action-result-legacy.json'));
  const v1 = c.validate(c.IncomingPluginMessageSchema, load('plugin-browser-action-result-error.json'));
  assert.ok(legacy.ok && !('type' in legacy.value));
  assert.ok(v1.ok && 'type' in v1.value && v1.value.type === 'browser_action_result');
});

meaning('the extension list fixture would fail without the health field we added', () => {
  const input = load('http-extension-list-response.json') as { data: Array<Record<string, unknown>> };
  const withoutHealth = { ...input, data: input.data.map(({ health: _health, ...rest }) => rest) };
  const result = c.validate(c.envelopeSchema(c.ExtensionListResponseSchema), withoutHealth);
  assert.not.ok(result.ok);
});

meaning.run();
