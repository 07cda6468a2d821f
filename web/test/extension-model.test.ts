import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AckResult } from '../src/io/ack.ts';
import { CONNECT_EXTENSION_STEPS, createExtensionModel } from '../src/models/extension-model.ts';
import { extension, FakeApi } from './util.ts';

function setup(answer: AckResult = { ok: true }, taskOpen = true) {
  const api = new FakeApi();
  const selected: string[] = [];
  const model = createExtensionModel({
    api,
    sendSelect: (clientId) => {
      if (!taskOpen) return null;
      selected.push(clientId);
      return Promise.resolve(answer);
    },
  });
  return { api, model, selected };
}

const ext = suite('extensions: picker and connect state');

ext('loading, then "connect the extension" when none is connected, with steps', async () => {
  const { api, model } = setup();
  assert.is(model.viewState.value, 'loading');
  api.extensions = { ok: true, data: [extension('p-old', { socketConnected: false })] };
  await model.refresh();
  assert.is(model.viewState.value, 'none');
  assert.is(model.serving.value, null);
  assert.ok(CONNECT_EXTENSION_STEPS.length >= 3);
});

ext('one connected instance serves the task by itself', async () => {
  const { api, model } = setup();
  api.extensions = { ok: true, data: [extension('p1')] };
  await model.refresh();
  assert.is(model.viewState.value, 'one');
  assert.is(model.serving.value?.clientId, 'p1');
});

ext('several: bound instance first, else the most recently used healthy one', async () => {
  const { api, model } = setup();
  api.extensions = {
    ok: true,
    data: [
      extension('p1', { lastUsedAt: 10 }),
      extension('p2', { lastUsedAt: 30, health: 'unhealthy' }),
      extension('p3', { lastUsedAt: 20 }),
    ],
  };
  await model.refresh();
  assert.is(model.viewState.value, 'several');
  assert.is(model.serving.value?.clientId, 'p3');
  model.setBound('p1');
  assert.is(model.serving.value?.clientId, 'p1');
  model.setBound('gone');
  assert.is(model.serving.value?.clientId, 'p3');
});

ext('select sends select_extension and binds on success, shows the error otherwise', async () => {
  const ok = setup();
  await ok.model.select('p2');
  assert.equal(ok.selected, ['p2']);
  assert.is(ok.model.boundClientId.value, 'p2');

  const refused = setup({ ok: false, error: { code: 'PLUGIN_OFFLINE', message: 'p2 is offline' } });
  await refused.model.select('p2');
  assert.is(refused.model.boundClientId.value, null);
  assert.is(refused.model.error.value?.code, 'PLUGIN_OFFLINE');

  const noTask = setup({ ok: true }, false);
  assert.is(await noTask.model.select('p2'), null);
});

ext('a failed refresh keeps the last list and reports the error', async () => {
  const { api, model } = setup();
  api.extensions = { ok: true, data: [extension('p1')] };
  await model.refresh();
  api.extensions = { ok: false, error: { code: 'UNAVAILABLE', message: 'server down' } };
  await model.refresh();
  assert.is(model.list.value.length, 1);
  assert.is(model.error.value?.code, 'UNAVAILABLE');
});

ext.run();
