// Fake browser extensions in their own process that answer like the real one (a real-size page):
// every browser_action is acked at once and answered after `delayMs`; browser_screenshot uploads
// a PNG (1280x800, about 180 KB) over HTTP to the action's presigned URL first and answers with
// the artifact the server named; browser_readability_extract returns the text of a captured page
// (31 KB, inline as the extension does below 256 KB) and browser_dom_index its element index
// (162 elements); the rest answer as runtime/test-util/fake-plugin.ts does.
//   node --import tsx bench/runtime/blackbox/extension-swarm.ts <url> <count> [delayMs]
// Prints "ready" once every plugin is connected. IPC {type:'window', on} starts/ends the measured
// window; {type:'stats'} answers {type:'stats', actions, gapsMs} where actions = browser_action
// frames received in the window and gapsMs = for each, the time since this task's previous result
// was sent (the result-to-next-dispatch gap as a plugin sees it, loopback included).
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { defaultResultOf, startFakePlugin, type FakeAnswer } from '../../../runtime/test-util/fake-plugin.ts';

const [url, countText, delayText] = process.argv.slice(2);
const delayMs = Number(delayText ?? 0);
const page = JSON.parse(readFileSync(new URL('../captured/lang_select.page.json', import.meta.url), 'utf8')) as {
  url: string;
  title: string;
  text: string;
  elements: unknown[];
  viewport: unknown;
};

/** A valid PNG of a screenshot's size: 1280x800 RGB, rows of noise every 8th row (about 180 KB). */
function screenshotPng(): Buffer {
  const width = 1280;
  const height = 800;
  const raw = Buffer.alloc((width * 3 + 1) * height, 0xee);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    if (y % 8 !== 0) continue;
    for (let x = 1; x <= width * 3; x++) raw[row + x] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const png = screenshotPng();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function upload(uploadUrl: string): Promise<{ artifactId: string; url: string }> {
  const response = await fetch(uploadUrl, {
    method: 'PUT',
    headers: { 'Content-Type': 'image/png' },
    body: new Uint8Array(png),
  });
  const body = (await response.json()) as { ok?: boolean; data?: { artifactId?: string; downloadUrl?: string } };
  if (!body.ok) throw new Error(`upload refused: HTTP ${response.status}`);
  return { artifactId: String(body.data?.artifactId), url: String(body.data?.downloadUrl) };
}

let measuring = false;
let actions = 0;
const gapsMs: number[] = [];
const lastResultAt = new Map<string, number>();

function answer(name: string, params: Record<string, unknown>, presigned?: string): FakeAnswer {
  const reply: FakeAnswer = { result: { status: 'success', result: {} } };
  const result = reply.result!;
  if (name === 'browser_screenshot' && presigned) {
    reply.until = sleep(delayMs).then(async () => {
      const stored = await upload(presigned);
      result.result = { ...stored, width: 1280, height: 800 };
    });
    return reply;
  }
  if (name === 'browser_readability_extract')
    result.result = {
      title: page.title,
      text: page.text,
      markdown: page.text,
      contentLengthBytes: Buffer.byteLength(page.text),
      truncated: false,
    };
  else if (name === 'browser_dom_index')
    result.result = { url: page.url, title: page.title, elements: page.elements, viewport: page.viewport };
  else result.result = defaultResultOf(name, params);
  if (delayMs > 0) reply.delayMs = delayMs;
  return reply;
}

const plugins = await Promise.all(
  Array.from({ length: Number(countText) }, async (_, i) => {
    const plugin = await startFakePlugin({
      url: url!,
      clientId: `bench-plugin-${i}`,
      answer: (name, params, frame) => {
        if (measuring) {
          actions++;
          const last = lastResultAt.get(frame.taskId);
          if (last !== undefined) gapsMs.push(performance.now() - last);
        }
        return answer(name, params, frame.screenshotPresignedUrl);
      },
    });
    const send = plugin.sendResult.bind(plugin);
    plugin.sendResult = (frame, result, legacy) => {
      send(frame, result, legacy);
      lastResultAt.set(frame.taskId, performance.now());
      // Nothing of the frames is needed after the answer: keep the process's memory flat.
      plugin.received.length = 0;
      plugin.executed.length = 0;
      plugin.frames.length = 0;
      plugin.acks.length = 0;
    };
    return plugin;
  }),
);

process.on('SIGTERM', () => {
  for (const p of plugins) p.close();
  process.exit(0);
});
process.on('message', (message: { type?: string; on?: boolean }) => {
  if (message?.type === 'window') {
    measuring = message.on === true;
    if (measuring) {
      actions = 0;
      gapsMs.length = 0;
    }
  } else if (message?.type === 'stats') process.send?.({ type: 'stats', actions, gapsMs });
});
console.log('ready');
