// The HTTP endpoints the extension calls, for the end-to-end harness: registration
// (POST /api/extension/extension-id), artifact presign/upload/download, and a stand-in web UI
// page at `/` that uses the page bridge.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { ExtensionRegistrationSchema, validate } from '../../../transport/contracts/index.ts';
import type { ExtensionRegistration } from '../../../transport/contracts/index.ts';
import { artifactResponseHeaders, isArtifactError } from '../../../runtime/artifacts/index.ts';
import type { ArtifactService } from '../../../runtime/artifacts/index.ts';

export interface HarnessHttpDeps {
  artifacts: ArtifactService;
  registrations: ExtensionRegistration[];
  /** Answer registrations with this HTTP status instead (to test retries); null = normal. */
  registrationStatus(): number | null;
}

/** The stand-in web UI: asks the page bridge and shows the answer in #bridge-result. */
export const WEB_UI_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Mimo web UI (harness)</title></head>
<body><h1>Mimo web UI stand-in</h1><pre id="bridge-result">waiting</pre>
<script>
window.addEventListener('message', function (e) {
  if (e.data && typeof e.data.type === 'string' && /_result$/.test(e.data.type)) {
    document.getElementById('bridge-result').textContent = JSON.stringify(e.data);
  }
});
window.askBridge = function (type) { window.postMessage({ type: type || 'mimo/get_plugin_client_info', requestId: 'req-' + Math.random().toString(36).slice(2) }, '*'); };
</script></body></html>`;

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res
    .writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) })
    .end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

export function createHarnessHttpHandler(deps: HarnessHttpDeps): (req: IncomingMessage, res: ServerResponse) => void {
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://harness.invalid');
    const path = url.pathname;
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(WEB_UI_PAGE);
      return;
    }
    if (req.method === 'POST' && path === '/api/extension/extension-id') {
      const forced = deps.registrationStatus();
      if (forced !== null)
        return json(res, forced, { ok: false, error: { code: 'UNAVAILABLE', message: 'forced by the test' } });
      const checked = validate(ExtensionRegistrationSchema, await readJson(req));
      if (!checked.ok)
        return json(res, 400, { ok: false, error: { code: 'BAD_REQUEST', message: checked.error.message } });
      deps.registrations.push(checked.value);
      return json(res, 200, { ok: true, data: { registered: true } });
    }
    if (req.method === 'POST' && path === '/api/artifacts/presign') {
      return json(res, 200, { ok: true, data: await deps.artifacts.presign((await readJson(req)) as never) });
    }
    const upload = /^\/api\/artifacts\/([^/]+)\/upload$/.exec(path);
    if (upload && (req.method === 'PUT' || req.method === 'POST')) {
      const length = req.headers['content-length'];
      const stored = await deps.artifacts.acceptUpload(
        upload[1]!,
        url.searchParams.get('token'),
        req as AsyncIterable<Uint8Array>,
        {
          ...(length === undefined ? {} : { contentLength: Number(length) }),
          ...(req.headers['content-type'] ? { contentType: req.headers['content-type'] } : {}),
        },
      );
      return json(res, 200, { ok: true, data: stored });
    }
    const download = /^\/api\/artifacts\/([^/]+)$/.exec(path);
    if (download && req.method === 'GET') {
      const opened = await deps.artifacts.open(download[1]!);
      res.writeHead(200, artifactResponseHeaders(opened) as Record<string, string>);
      Readable.fromWeb(opened.stream() as never).pipe(res);
      return;
    }
    json(res, 404, { ok: false, error: { code: 'NOT_FOUND', message: `no route ${req.method} ${path}` } });
  }

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      if (isArtifactError(error)) return json(res, error.status, { ok: false, error: error.toJSON() });
      json(res, 500, { ok: false, error: { code: 'INTERNAL', message: String(error) } });
    });
  };
}
