// What the scripted server remembers across restarts: tasks with their messages, the browser
// snapshot and its seq, the connected extensions and stored artifacts. A test keeps one world and
// hands it to each server it starts, as a real server keeps its data folder.
import type { ExtensionListItem, TaskMessage, TaskSummary } from '../../../../transport/contracts/http.ts';
import type { SnapshotState } from '../../../../transport/contracts/snapshot.ts';

export interface WorldTask {
  summary: TaskSummary;
  messages: TaskMessage[];
}

export interface HarnessWorld {
  tasks: Map<string, WorldTask>;
  snapshot: SnapshotState;
  extensions: ExtensionListItem[];
  artifacts: Map<string, { contentType: string; bytes: Buffer }>;
  /** Counter behind the ids the server hands out. */
  counter: number;
}

export function createWorld(now = Date.now()): HarnessWorld {
  return {
    tasks: new Map(),
    snapshot: {
      windows: [{ windowId: 1, focused: true, type: 'normal', state: 'normal' }],
      tabs: [
        {
          tabId: 11,
          windowId: 1,
          index: 0,
          active: true,
          pinned: false,
          hidden: false,
          title: 'Inbox (3) · Mail',
          url: 'https://mail.example.net/inbox',
          status: 'complete',
        },
        {
          tabId: 12,
          windowId: 1,
          index: 1,
          active: false,
          pinned: false,
          hidden: false,
          title: 'Project notes',
          url: 'https://notes.example.org/mimo',
          status: 'complete',
        },
      ],
      tabGroups: [],
      activeWindowId: 1,
      activeTabId: 11,
      lastUpdated: now,
    },
    extensions: [
      {
        clientId: 'plugin-e2e-1',
        extensionId: 'abcdefghijklmnop',
        extensionName: 'mimo-agent',
        version: '0.1.0',
        browserName: 'chrome',
        socketConnected: true,
        lastSeenAt: now,
        health: 'healthy',
      },
    ],
    artifacts: new Map(),
    counter: 0,
  };
}

/** A ULID-shaped task id (fixed time part, counter in the random part). */
export function nextTaskId(world: HarnessWorld): string {
  world.counter += 1;
  return `01JE2E0000${String(world.counter).padStart(16, '0')}`;
}
