// Pages that interrupt, for the headed focus test: a task page whose buttons open pop-ups (by
// window.open, a stand-in window navigated later, target links and forms, a script's click),
// show alert/confirm/prompt, ask for permissions, focus, print, go fullscreen and open a file
// chooser; a page that holds a beforeunload prompt; a landing page for the new tabs; and the
// person's own page, which records every focus, blur, visibility change and key it gets.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const person = `<!doctype html><html><head><meta charset="utf-8"><title>My notes</title>
<style>body{margin:0}textarea{position:absolute;left:0;top:0;width:100%;height:100%;box-sizing:border-box;font:16px monospace}</style></head>
<body><textarea id="notes" autofocus></textarea>
<script>
  window.__person = { events: [], keys: 0 };
  const note = (type) => window.__person.events.push({ type, at: performance.now(), visibility: document.visibilityState, focus: document.hasFocus() });
  addEventListener('focus', () => note('window-focus'));
  addEventListener('blur', () => note('window-blur'));
  document.addEventListener('visibilitychange', () => note('visibility-' + document.visibilityState));
  const notes = document.getElementById('notes');
  notes.addEventListener('blur', () => note('caret-lost'));
  notes.addEventListener('focus', () => note('caret-back'));
  notes.addEventListener('keydown', () => window.__person.keys++);
</script></body></html>`;

const task = `<!doctype html><html><head><meta charset="utf-8"><title>Interrupting page</title>
<style>button,a,input{display:block;margin:4px;font:14px sans-serif}</style></head><body>
<button id="open">window.open</button>
<button id="open-later">window.open, then location</button>
<a id="link" href="/landing.html?via=link" target="_blank">target link</a>
<form id="get-form" action="/landing.html" method="get" target="_blank"><input type="hidden" name="via" value="get-form"><button id="get-submit">GET form into a new tab</button></form>
<form id="post-form" action="/landing.html?via=post-form" method="post" target="_blank"><input type="hidden" name="x" value="1"><button id="post-submit">POST form into a new tab</button></form>
<a id="hidden-link" href="/landing.html?via=script-click" target="_blank" style="display:none">hidden</a>
<button id="script-click">script clicks a target link</button>
<button id="alert">alert</button>
<button id="confirm">confirm</button>
<button id="prompt">prompt</button>
<button id="geo">geolocation</button>
<button id="notify">notifications</button>
<button id="camera">camera</button>
<button id="focus">window.focus</button>
<button id="print">print</button>
<button id="fullscreen">fullscreen</button>
<input id="file" type="file">
<a id="download" href="/report.csv" download>download a file</a>
<a id="mailto" href="mailto:someone@example.com">write an e-mail</a>
<button id="script-post">script submits a POST form into a new tab</button>
<pre id="log"></pre>
<script>
  let n = 0;
  const log = (line) => { document.getElementById('log').textContent += line + '\\n'; };
  const on = (id, fn) => document.getElementById(id).addEventListener('click', fn);
  on('open', () => { const w = window.open('/landing.html?via=open&n=' + (++n)); log('open:' + (w ? 'window' : 'null')); });
  on('open-later', () => { const w = window.open(''); if (!w) return log('open-later:null'); w.location.href = '/landing.html?via=open-later'; log('open-later:done'); });
  on('script-post', () => { document.getElementById('post-form').submit(); log('script-post:done'); });
  on('script-click', () => { document.getElementById('hidden-link').click(); log('script-click:done'); });
  on('alert', () => { alert('Your session will expire'); log('alert:returned'); });
  on('confirm', () => log('confirm:' + confirm('Leave this page?')));
  on('prompt', () => log('prompt:' + prompt('Your name?', 'Ada')));
  on('geo', () => navigator.geolocation.getCurrentPosition(() => log('geo:granted'), (e) => log('geo:error-' + e.code)));
  on('notify', () => Notification.requestPermission().then((p) => log('notify:' + p)));
  on('camera', () => navigator.mediaDevices.getUserMedia({ video: true }).then(() => log('camera:granted'), (e) => log('camera:' + e.name)));
  on('focus', () => { window.focus(); log('focus:called'); });
  on('print', () => { window.print(); log('print:returned'); });
  on('fullscreen', () => document.documentElement.requestFullscreen().then(() => log('fullscreen:granted'), (e) => log('fullscreen:' + e.name)));
</script></body></html>`;

const leave = `<!doctype html><html><head><meta charset="utf-8"><title>Unsaved changes</title></head><body>
<button id="edit">edit</button><pre id="log"></pre>
<script>
  document.getElementById('edit').addEventListener('click', () => { window.focus(); document.getElementById('log').textContent = 'edited'; });
  addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = 'You have unsaved changes'; });
</script></body></html>`;

// The same, with the old inline form of the prompt.
const leaveInline = leave
  .replace('<body>', `<body onbeforeunload="return 'You have unsaved changes'">`)
  .replace(
    "addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = 'You have unsaved changes'; });",
    '',
  );

const landing = `<!doctype html><html><head><meta charset="utf-8"><title>Landing</title></head><body><h1>Landed</h1></body></html>`;

export interface InterruptionPages {
  url: string;
  close(): Promise<void>;
}

export async function serveInterruptionPages(): Promise<InterruptionPages> {
  const pages: Record<string, string> = {
    '/person.html': person,
    '/task.html': task,
    '/leave.html': leave,
    '/leave-inline.html': leaveInline,
    '/landing.html': landing,
  };
  const server = createServer((req, res) => {
    req.resume();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/report.csv') {
      return void res
        .writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="report.csv"' })
        .end('a,b\n1,2\n');
    }
    const body = pages[path];
    if (!body) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
