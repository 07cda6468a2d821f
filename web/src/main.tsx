// Entry point: builds the IO (socket.io-client, fetch, storage), the app state, and renders.
import { effect } from '@preact/signals';
import { nanoid } from 'nanoid';
import { render } from 'preact';
import { io } from 'socket.io-client';
import { MIMO_NAMESPACE } from '../../transport/contracts/socket-auth.ts';
import { createAppState } from './app-state.ts';
import { AppView } from './components/app-view.tsx';
import { createApiClient } from './io/api-client.ts';
import { createSocketLink, type SocketLike } from './io/socket-link.ts';
import { hashForTask, taskIdFromHash } from './io/task-route.ts';
import { fetchTokenCheck, resolveToken, settleOfferedToken, type KeyValueStorage } from './io/token.ts';
import { createLazyResource } from './models/lazy-resource.ts';
import { createDebugBarNote } from './models/debug-bar-note.ts';
import type { ConversationChunk } from './conversation-chunk.ts';
import type { MachinesChunk } from './machines-chunk.ts';
import type { CreateInspector } from './models/stately-bridge.ts';
import './styles.css';

function storage(): KeyValueStorage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

const { token, cleanedHref, offered } = resolveToken(location.href, storage());
if (cleanedHref) history.replaceState(history.state, '', cleanedHref);
// A link offered another token: the stored one stays unless the server refuses it and
// takes the offered one; then the page starts again with it.
if (offered !== undefined && token !== undefined) {
  void settleOfferedToken(token, offered, fetchTokenCheck(window.fetch.bind(window), location.origin), storage()).then(
    (outcome) => {
      if (!outcome.kept) location.reload();
      else console.warn(`[mimo] a link offered a different access token; kept the stored one (${outcome.reason}).`);
    },
  );
}

// Same origin: the server serves this page, or Vite's dev server proxies /api and /socket.io.
const socket = io(`${location.origin}${MIMO_NAMESPACE}`, {
  auth: token ? { clientType: 'frontend', token } : { clientType: 'frontend' },
  transports: ['websocket'],
  autoConnect: false,
});
const link = createSocketLink({
  socket: socket as unknown as SocketLike,
  onInvalidEvent: (issue, raw) =>
    console.warn('[mimo] dropped a frontend_event that does not match the contract:', issue, raw),
});
const api = createApiClient({ fetch: window.fetch.bind(window), token });
const app = createAppState({ api, link, clock: Date, newId: () => nanoid(16) });

const machines = createLazyResource<MachinesChunk>(() =>
  import('./machines-chunk.ts').then((m) => {
    const chunk = m.loadMachinesChunk({
      load: () => import('@statelyai/inspect').then((i) => i.createBrowserInspector as unknown as CreateInspector),
      window,
      setTimeout: (fn, ms) => window.setTimeout(fn, ms),
      clearTimeout: (handle) => window.clearTimeout(handle as number),
    });
    // Records from before the chunk loaded are replayed when the inspector opens (inspection.records()).
    app.inspection.onRecord((record) => chunk.stately.forward(record));
    return chunk;
  }),
);
const conversation = createLazyResource<ConversationChunk>(() =>
  import('./conversation-chunk.ts').then((m) => m.loadConversationChunk()),
);

const initialTaskId = taskIdFromHash(location.hash);
effect(() => {
  const hash = hashForTask(app.currentTaskId.value);
  if (hash !== location.hash && (hash !== '' || location.hash !== ''))
    history.replaceState(history.state, '', `${location.pathname}${location.search}${hash}`);
});
window.addEventListener('hashchange', () => {
  const taskId = taskIdFromHash(location.hash);
  if (taskId) void app.openTask(taskId);
});
window.setInterval(() => app.tick(), 5_000);

const debugBarNote = createDebugBarNote({ storage: storage() });
render(
  <AppView app={app} machines={machines} conversation={conversation} debugBarNote={debugBarNote} />,
  document.getElementById('app')!,
);
void app.start(initialTaskId);
