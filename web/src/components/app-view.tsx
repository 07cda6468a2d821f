import type { AppState, Pane } from '../app-state.ts';
import type { ConversationChunk } from '../conversation-chunk.ts';
import type { MachinesChunk } from '../machines-chunk.ts';
import type { LazyResource } from '../models/lazy-resource.ts';
import { Composer } from './composer.tsx';
import { ConnectionIndicator } from './connection-indicator.tsx';
import { SidePanel } from './side-panel.tsx';
import { TakeoverBanner } from './takeover-banner.tsx';
import { DebugBarNote } from './debug-bar-note.tsx';
import type { DebugBarNote as DebugBarNoteModel } from '../models/debug-bar-note.ts';
import { ConfirmPanel } from './confirm-panel.tsx';
import { ScopeBar } from './scope-bar.tsx';
import { TaskHeader } from './task-header.tsx';
import { TaskSidebar } from './task-sidebar.tsx';

const panes: { id: Pane; label: string }[] = [
  { id: 'tasks', label: 'Tasks' },
  { id: 'chat', label: 'Chat' },
  { id: 'panel', label: 'Browser' },
];

export function AppView({
  app,
  machines,
  conversation,
  debugBarNote,
}: {
  app: AppState;
  machines: LazyResource<MachinesChunk>;
  conversation: LazyResource<ConversationChunk>;
  /** Explains Chrome's debugging bar the first time a task acts in the browser. */
  debugBarNote?: DebugBarNoteModel;
}) {
  const pane = app.pane.value;
  const connected = app.connection.status.value === 'connected';
  // A stopped or failed task takes a follow-up message (it reopens), so only the link matters.
  const disabledReason = !connected ? 'Not connected to the server; messages can be sent again once it is back.' : null;
  return (
    <div class="app" data-pane={pane}>
      <a
        class="skip-link"
        href="#message"
        onClick={(e) => {
          e.preventDefault();
          app.showPane('chat');
          requestAnimationFrame(() => document.getElementById('message')?.focus());
        }}
      >
        Skip to the message box
      </a>
      <header class="topbar">
        <span class="brand">Mimo</span>
        <nav class="pane-tabs" aria-label="Sections">
          {panes.map((p) => (
            <button
              key={p.id}
              type="button"
              aria-pressed={pane === p.id}
              class={pane === p.id ? 'selected' : ''}
              onClick={() => app.showPane(p.id)}
            >
              {p.label}
            </button>
          ))}
        </nav>
        <ConnectionIndicator
          connection={app.connection}
          extensions={app.extensions}
          situation={app.extensionSituation.value}
          onShowExtensions={() => app.showExtensions()}
        />
      </header>
      <aside class="pane pane-tasks">
        <TaskSidebar app={app} />
      </aside>
      <main class="pane pane-chat">
        <TaskHeader app={app} />
        <ScopeBar person={app.person} hasTask={app.currentTaskId.value !== null} />
        <TakeoverBanner status={app.status} onShowTab={() => void app.person.showTab()} />
        {debugBarNote && <DebugBarNote note={debugBarNote} items={app.chat.items} />}
        <ConfirmPanel person={app.person} />
        {app.taskError.value && (
          <p class="error-text" role="alert">
            {app.taskError.value.code}: {app.taskError.value.message}
          </p>
        )}
        <LazyChatLog
          conversation={conversation}
          chat={app.chat}
          errorActions={{
            situation: app.extensionSituation.value,
            retry: () => void app.retryTurn(),
            showExtensions: () => app.showExtensions(),
            canSelectBrowser: app.extensions.connected.value.length > 1,
          }}
          onRetry={(id) => void app.retry(id)}
          empty={emptyText(app)}
        />
        <Composer onSend={(text) => app.send(text)} disabledReason={disabledReason} />
      </main>
      <aside class="pane pane-panel" aria-label="Browser and machines">
        <SidePanel app={app} machines={machines} conversation={conversation} />
      </aside>
    </div>
  );
}

const emptyText = (app: AppState) =>
  app.currentTaskId.value ? 'No messages yet.' : 'Describe a task, e.g. "Open example.com and summarise the page".';

type ChatLogProps = Parameters<ConversationChunk['ChatLog']>[0];

/** The conversation renderer, fetched once there is something to show (a message, a step). */
function LazyChatLog({ conversation, ...props }: ChatLogProps & { conversation: LazyResource<ConversationChunk> }) {
  const chunk = conversation.value.value;
  const needed = props.chat.items.value.length > 0;
  if (needed && !chunk) void conversation.load();
  if (chunk) return <chunk.ChatLog {...props} />;
  return (
    <div class="chat-wrap">
      <div class="chat-log" aria-busy={needed}>
        {conversation.error.value ? (
          <p class="error-text" role="alert">
            Could not load the conversation view: {conversation.error.value}. Reload the page to try again.
          </p>
        ) : (
          !needed && <p class="empty muted">{props.empty}</p>
        )}
      </div>
    </div>
  );
}
