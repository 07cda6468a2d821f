// The note that explains Chrome's "Mimo started debugging this browser" bar.
// Chrome shows that bar while the extension holds the debugger of a tab: from a task's first
// browser step until it has been idle for a while (extension/background/task-idle.ts). The first
// time a task acts in the browser the web UI says what the bar is; once dismissed it stays
// dismissed (localStorage). Plain signals, no DOM: tested without one.
import { computed, signal, type ReadonlySignal } from '@preact/signals';

export const DEBUG_BAR_NOTE_KEY = 'mimo.debugBarNote.dismissed';

export interface NoteStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface DebugBarNote {
  readonly visible: ReadonlySignal<boolean>;
  /** The chat's items changed: a browser step among them means the bar has appeared. */
  noteItems(items: ReadonlyArray<{ kind: string; actionName?: string }>): void;
  dismiss(): void;
}

/** Steps that act in the browser (the debugger attaches for them); plain reads of the snapshot do not count. */
const BROWSER_STEP = /^(?:browser_|task_start$)/;

export function createDebugBarNote(deps: { storage: NoteStorage | undefined }): DebugBarNote {
  const read = () => {
    try {
      return deps.storage?.getItem(DEBUG_BAR_NOTE_KEY) === '1';
    } catch {
      return false;
    }
  };
  const dismissed = signal(read());
  const acted = signal(false);
  return {
    visible: computed(() => acted.value && !dismissed.value),
    noteItems(items) {
      if (acted.peek() || dismissed.peek()) return;
      if (
        items.some(
          (item) => item.kind === 'tool' && typeof item.actionName === 'string' && BROWSER_STEP.test(item.actionName),
        )
      )
        acted.value = true;
    },
    dismiss() {
      dismissed.value = true;
      try {
        deps.storage?.setItem(DEBUG_BAR_NOTE_KEY, '1');
      } catch {
        // Dismissed for this page only.
      }
    },
  };
}
