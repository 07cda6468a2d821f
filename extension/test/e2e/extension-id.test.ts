// The built extension, loaded unpacked into a real Chromium, gets the pinned id
// (DEFAULT_EXTENSION_ID): the server trusts `chrome-extension://<that id>` as an Origin, so the
// default build must really have it. Chromium derives the id from the manifest's `key`.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_EXTENSION_ID } from '../../../transport/contracts/extension-identity.ts';
import { buildExtension } from '../../build.ts';
import { launchWithExtension } from '../harness/chromium.ts';
import { armWatchdog } from './e2e-util.ts';

const disarm = armWatchdog(90_000, 'extension-id.test');

test('the extension built by buildExtension runs in Chromium under DEFAULT_EXTENSION_ID', async () => {
  const outDir = await mkdtemp(join(tmpdir(), 'mimo-ext-id-'));
  try {
    await buildExtension({ outDir });
    const manifest = JSON.parse(await readFile(join(outDir, 'manifest.json'), 'utf8'));
    assert.type(manifest.key, 'string', 'the built manifest carries the pinned key');
    const browser = await launchWithExtension(outDir);
    try {
      assert.is(browser.extensionId, DEFAULT_EXTENSION_ID);
      // The worker itself agrees (chrome.runtime.id), not only the URL Playwright saw.
      const runtimeId = await browser.serviceWorker.evaluate(() => (globalThis as any).chrome.runtime.id);
      assert.is(runtimeId, DEFAULT_EXTENSION_ID);
      const page = await browser.context.newPage();
      await page.goto(`chrome-extension://${DEFAULT_EXTENSION_ID}/options.html`);
      assert.is(await page.title(), 'Mimo options');
    } finally {
      await browser.close();
    }
  } finally {
    await rm(outDir, { recursive: true, force: true });
    disarm();
  }
});

test.run();
