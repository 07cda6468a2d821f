// Pure parts of issue 13's extension work: the main-frame navigation state folded from CDP
// events (old document's load never stands for the new one; same-document routes; HTTP status;
// net errors) and key chords for browser_press.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { applyNavEvent, emptyNavState, navigationSince, seedNavState } from '../background/nav-state.ts';
import { chordEvents, parseChord } from '../background/key-chord.ts';

const nav = suite('navigation state (CDP events by loaderId)');
const main = { id: 'F1', loaderId: 'L1', url: 'http://a.test/form' };

nav('a click that submits: requested, the old load does not count, the new document loads with its status', () => {
  const state = emptyNavState();
  seedNavState(state, main, true);
  const mark = state.seq;
  applyNavEvent(state, 'Page.frameRequestedNavigation', {
    frameId: 'F1',
    url: 'http://a.test/done',
    disposition: 'currentTab',
  });
  assert.equal(navigationSince(state, mark), { url: 'http://a.test/done', sameDocument: false, committed: false });
  applyNavEvent(state, 'Network.requestWillBeSent', {
    type: 'Document',
    frameId: 'F1',
    requestId: 'L2',
    loaderId: 'L2',
    request: { url: 'http://a.test/done' },
  });
  applyNavEvent(state, 'Page.lifecycleEvent', { frameId: 'F1', loaderId: 'L1', name: 'load' }); // a late load of the old page
  applyNavEvent(state, 'Network.responseReceived', {
    type: 'Document',
    frameId: 'F1',
    loaderId: 'L2',
    response: { status: 404 },
  });
  applyNavEvent(state, 'Page.frameNavigated', {
    frame: { id: 'F1', loaderId: 'L2', url: 'http://a.test/done' },
    type: 'Navigation',
  });
  assert.equal(state.doc, { loaderId: 'L2', url: 'http://a.test/done', loaded: false, httpStatus: 404 });
  applyNavEvent(state, 'Page.lifecycleEvent', { frameId: 'F1', loaderId: 'L1', name: 'load' });
  assert.is(state.doc!.loaded, false, "the old document's load is not the new one's");
  applyNavEvent(state, 'Page.lifecycleEvent', { frameId: 'F1', loaderId: 'L2', name: 'load' });
  assert.is(state.doc!.loaded, true);
  assert.equal(navigationSince(state, mark), {
    url: 'http://a.test/done',
    sameDocument: false,
    committed: true,
    httpStatus: 404,
  });
});

nav('a hash route is a same-document navigation; a refused connection names its net error', () => {
  const state = emptyNavState();
  seedNavState(state, main, true);
  const mark = state.seq;
  applyNavEvent(state, 'Page.navigatedWithinDocument', { frameId: 'F1', url: 'http://a.test/form#/active' });
  assert.equal(navigationSince(state, mark), {
    url: 'http://a.test/form#/active',
    sameDocument: true,
    committed: true,
  });
  assert.is(state.doc!.loaded, true, 'no new load to wait for');
  applyNavEvent(state, 'Network.requestWillBeSent', {
    type: 'Document',
    frameId: 'F1',
    requestId: 'L3',
    loaderId: 'L3',
    request: { url: 'http://127.0.0.1:9/' },
  });
  applyNavEvent(state, 'Network.loadingFailed', {
    requestId: 'L3',
    errorText: 'net::ERR_CONNECTION_REFUSED',
    canceled: false,
  });
  applyNavEvent(state, 'Page.frameNavigated', {
    frame: { id: 'F1', loaderId: 'L4', url: 'chrome-error://chromewebdata/', unreachableUrl: 'http://127.0.0.1:9/' },
  });
  assert.equal(state.doc, {
    loaderId: 'L4',
    url: 'http://127.0.0.1:9/',
    loaded: false,
    netError: 'net::ERR_CONNECTION_REFUSED',
  });
});

nav('a navigation that stops before committing (204, download) is dropped; subframes are ignored', () => {
  const state = emptyNavState();
  seedNavState(state, main, true);
  const mark = state.seq;
  applyNavEvent(state, 'Page.frameRequestedNavigation', {
    frameId: 'F1',
    url: 'http://a.test/file.zip',
    disposition: 'currentTab',
  });
  applyNavEvent(state, 'Page.frameStoppedLoading', { frameId: 'F1' });
  assert.is(navigationSince(state, mark), null);
  applyNavEvent(state, 'Page.frameNavigated', {
    frame: { id: 'F2', parentId: 'F1', loaderId: 'X', url: 'http://ads.test/' },
  });
  assert.is(navigationSince(state, mark), null);
  assert.is(state.doc!.url, 'http://a.test/form');
});

nav.run();

const keys = suite('key chords (browser_press)');

keys('named keys, characters and chords parse; unknown names are refused', () => {
  const ok = (input: string) => {
    const parsed = parseChord(input, false);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.chord;
  };
  assert.equal(
    [
      ok('Enter').name,
      ok('Control+A').name,
      ok('ctrl+shift+tab').name,
      ok('Meta+Shift+ArrowLeft').name,
      ok('Space').name,
      ok('+').name,
    ],
    ['Enter', 'Control+A', 'Control+Shift+Tab', 'Meta+Shift+ArrowLeft', 'Space', '+'],
  );
  assert.is(ok('Shift+a').key.key, 'A');
  assert.is(ok('ControlOrMeta+c').mask, 2);
  assert.is((parseChord('ControlOrMeta+c', true) as any).chord.mask, 4);
  for (const bad of ['Hyper+A', 'NotAKey', 'Control+', '']) assert.not.ok(parseChord(bad, false).ok, bad);
});

keys('events: modifiers down in order, the key (text only when it types), modifiers up in reverse', () => {
  const chord = (parseChord('Control+Shift+A', false) as any).chord;
  assert.equal(
    chordEvents(chord, false).map((e) => `${e.type}:${e.key}:${e.modifiers}${e.text ? ':text' : ''}`),
    [
      'rawKeyDown:Control:2',
      'rawKeyDown:Shift:10',
      'rawKeyDown:A:10',
      'keyUp:A:10',
      'keyUp:Shift:2',
      'keyUp:Control:0',
    ],
  );
  const enter = chordEvents((parseChord('Enter', false) as any).chord, false);
  assert.equal(enter[0], {
    type: 'keyDown',
    key: 'Enter',
    code: 'Enter',
    windowsVirtualKeyCode: 13,
    modifiers: 0,
    text: '\r',
    unmodifiedText: '\r',
  });
  const macSelectAll = chordEvents((parseChord('Meta+A', true) as any).chord, true);
  assert.equal(macSelectAll[1]!.commands, ['selectAll']);
});

keys.run();
