// The note explaining Chrome's debugging bar (issue 23 item 5): shown the first time a task acts
// in the browser, gone for good once dismissed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDebugBarNote, DEBUG_BAR_NOTE_KEY } from '../src/models/debug-bar-note.ts';

const s = suite('debug bar note');
const memory = () => {
  const data = new Map<string, string>();
  return { data, getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
};

s('hidden until a browser step appears; chat alone does not show it', () => {
  const note = createDebugBarNote({ storage: memory() });
  assert.is(note.visible.value, false);
  note.noteItems([{ kind: 'user' }, { kind: 'assistant' }]);
  assert.is(note.visible.value, false);
  note.noteItems([{ kind: 'user' }, { kind: 'tool', actionName: 'browser_click' }]);
  assert.is(note.visible.value, true);
});

s('dismissed: hidden now and on the next visit', () => {
  const storage = memory();
  const note = createDebugBarNote({ storage });
  note.noteItems([{ kind: 'tool', actionName: 'task_start' }]);
  note.dismiss();
  assert.is(note.visible.value, false);
  assert.is(storage.data.get(DEBUG_BAR_NOTE_KEY), '1');
  const later = createDebugBarNote({ storage });
  later.noteItems([{ kind: 'tool', actionName: 'browser_type' }]);
  assert.is(later.visible.value, false);
});

s('a storage that refuses only loses the memory of the dismissal', () => {
  const refusing = {
    getItem: () => {
      throw new Error('denied');
    },
    setItem: () => {
      throw new Error('denied');
    },
  };
  const note = createDebugBarNote({ storage: refusing });
  note.noteItems([{ kind: 'tool', actionName: 'browser_open' }]);
  assert.is(note.visible.value, true);
  note.dismiss();
  assert.is(note.visible.value, false);
});

s.run();
