// Headed Chromium with the extension on a real X display, and NO CDP client on any page: the test
// talks CDP to the browser endpoint only to reach the extension's service worker (flat session),
// and reads pages through the extension (chrome.scripting). Playwright is not used here because it
// attaches to every page (focus emulation, auto-dismissed dialogs), which would hide exactly what
// the headed tests look for.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { chromiumArgs, devtoolsUrl, ownChromium, requireChromium } from './chromium.ts';

export interface HeadedBrowser {
  process: ChildProcess;
  /** Evaluates an expression (a string: no bundler helpers leak in) in the extension's service worker. */
  inWorker<T>(expression: string): Promise<T>;
  close(): Promise<void>;
}

/** A minimal CDP connection to the browser endpoint (flat sessions). */
function connectCdp(url: string) {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  let nextId = 0;
  const waiting = new Map<number, { resolve(value: any): void; reject(error: Error): void }>();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    const pending = message.id === undefined ? undefined : waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.error) pending.reject(new Error(`${message.error.message} (${message.error.code})`));
    else pending.resolve(message.result);
  });
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    opened,
    send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<any> {
      const id = ++nextId;
      socket.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    },
    close: () => socket.close(),
  };
}

export async function launchHeaded(
  extensionDir: string,
  options: { display: string; extensionId: string; startUrl: string; downloadDir?: string; timeoutMs?: number },
): Promise<HeadedBrowser> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const userDataDir = await mkdtemp(join(tmpdir(), 'mimo-chromium-headed-'));
  if (options.downloadDir) {
    await mkdir(join(userDataDir, 'Default'), { recursive: true });
    const prefs = {
      download: { default_directory: options.downloadDir, prompt_for_download: false, directory_upgrade: true },
    };
    await writeFile(join(userDataDir, 'Default', 'Preferences'), JSON.stringify(prefs));
  }
  const child = spawn(
    requireChromium(),
    [
      ...chromiumArgs(extensionDir),
      '--window-position=0,0',
      '--window-size=1200,860',
      '--remote-debugging-port=0',
      `--user-data-dir=${userDataDir}`,
      options.startUrl,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, DISPLAY: options.display } },
  );
  const stopChromium = ownChromium(child, userDataDir);
  let cdp: ReturnType<typeof connectCdp> | undefined;
  const close = async () => {
    cdp?.close();
    await stopChromium();
  };
  try {
    cdp = connectCdp(await devtoolsUrl(child, timeoutMs));
    await cdp.opened;
    const workerUrl = `chrome-extension://${options.extensionId}/`;
    let sessionId: string | undefined;
    const deadline = Date.now() + timeoutMs;
    while (!sessionId) {
      const { targetInfos } = await cdp.send('Target.getTargets');
      const worker = (targetInfos as Array<{ targetId: string; type: string; url: string }>).find(
        (t) => t.type === 'service_worker' && t.url.startsWith(workerUrl),
      );
      if (worker)
        sessionId = (await cdp.send('Target.attachToTarget', { targetId: worker.targetId, flatten: true })).sessionId;
      else if (Date.now() > deadline)
        throw new Error(`the extension's service worker (${workerUrl}) did not start within ${timeoutMs} ms`);
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const connection = cdp;
    const session = sessionId;
    const inWorker = async <T>(expression: string): Promise<T> => {
      const { result, exceptionDetails } = await connection.send(
        'Runtime.evaluate',
        { expression, awaitPromise: true, returnByValue: true },
        session,
      );
      if (exceptionDetails)
        throw new Error(`in the service worker: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
      return result.value as T;
    };
    await connection.send('Runtime.runIfWaitingForDebugger', {}, session).catch(() => {});
    // Right after attaching, the worker's global scope may not be set up yet.
    while (!(await inWorker<boolean>(`typeof chrome === 'object' && !!chrome.tabs`).catch(() => false))) {
      if (Date.now() > deadline)
        throw new Error(`the extension API never appeared in the service worker within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { process: child, inWorker, close };
  } catch (error) {
    await close();
    throw error;
  }
}
