import { createServer } from 'node:http';
import { buildExtension } from '/work/wt-12x/extension/build.ts';
import { launchWithExtension } from '/work/wt-12x/extension/test/harness/chromium.ts';
const log: string[] = [];
function serve(name: string, body: (url: string) => string) {
  return new Promise<string>((resolve) => {
    const s = createServer((req, res) => { log.push(`${name} ${req.url}`); res.writeHead(200, { 'content-type': 'text/html' }); res.end(body(req.url!)); });
    s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as any).port}`));
  });
}
const b = await serve('B', () => '<h1>blocked page</h1>');
const a = await serve('A', () => `<h1>A</h1><button id=b onclick="window.open('${b}/popup')">open</button>`);
await buildExtension({ outDir: '/tmp/exp12x/dist' });
const launched = await launchWithExtension('/tmp/exp12x/dist');
const sw = launched.serviceWorker;
const out = await sw.evaluate(async ({ a, b }) => {
  const chrome = (globalThis as any).chrome;
  const events: any[] = []; let mine = false;
  chrome.debugger.onEvent.addListener((source: any, method: string, params: any) => {
    events.push({ source, method, url: params?.request?.url, type: params?.targetInfo?.type, turl: params?.targetInfo?.url, waiting: params?.waitingForDebugger, sid: params?.sessionId });
    if (method === 'Target.attachedToTarget') {
      const child = { tabId: source.tabId, sessionId: params.sessionId };
      chrome.debugger.sendCommand(child, 'Fetch.enable', { patterns: [{ resourceType: 'Document', requestStage: 'Request' }] })
        .then(() => chrome.debugger.sendCommand(child, 'Runtime.runIfWaitingForDebugger', {}))
        .then(() => events.push('child ok'), (e: any) => events.push('child err ' + e.message));
    }
    if (method === 'Fetch.requestPaused') {
      const target = source.sessionId ? { tabId: source.tabId, sessionId: source.sessionId } : { tabId: source.tabId };
      if (params.request.url.startsWith(b)) chrome.debugger.sendCommand(target, 'Fetch.failRequest', { requestId: params.requestId, errorReason: 'BlockedByClient' });
      else chrome.debugger.sendCommand(target, 'Fetch.continueRequest', { requestId: params.requestId });
    }
  });
  chrome.tabs.onCreated.addListener(async (t: any) => {
    events.push({ created: t.id, pending: t.pendingUrl, url: t.url, at: performance.now() });
    if (!mine) return;
    try { await chrome.debugger.attach({ tabId: t.id }, '1.3'); events.push('attached new ' + performance.now());
      await chrome.debugger.sendCommand({ tabId: t.id }, 'Fetch.enable', { patterns: [{ resourceType: 'Document', requestStage: 'Request' }] }); events.push('fetch new ' + performance.now()); } catch (e: any) { events.push('new err ' + e.message); }
  });
  const tab = await chrome.tabs.create({ url: 'about:blank', active: false });
  await chrome.debugger.attach({ tabId: tab.id }, '1.3');
  await chrome.debugger.sendCommand({ tabId: tab.id }, 'Fetch.enable', { patterns: [{ resourceType: 'Document', requestStage: 'Request' }] });
  let r: any;
  try { r = await chrome.debugger.sendCommand({ tabId: tab.id }, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true, filter: [{ type: 'page' }, { type: 'iframe' }] }); events.push('autoattach ok'); } catch (e: any) { events.push('autoattach err ' + e.message); }
  mine = true;
  await chrome.tabs.update(tab.id, { url: a + '/' });
  await new Promise((r) => setTimeout(r, 1000));
  await chrome.debugger.sendCommand({ tabId: tab.id }, 'Runtime.evaluate', { expression: 'document.getElementById("b").click()', userGesture: true });
  await new Promise((r) => setTimeout(r, 1500));
  await chrome.debugger.sendCommand({ tabId: tab.id }, 'Runtime.evaluate', { expression: `location.href = "${b}/script"` });
  await new Promise((r) => setTimeout(r, 1500));
  const tabs = (await chrome.tabs.query({})).map((t: any) => ({ id: t.id, url: t.url, opener: t.openerTabId }));
  return { events, tabs };
}, { a, b });
console.log(JSON.stringify(out, null, 1));
console.log(log);
await launched.close();
process.exit(0);
