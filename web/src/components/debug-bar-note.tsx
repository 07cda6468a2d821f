// Explains Chrome's "Mimo started debugging this browser" bar the first time a task acts in the
// browser; dismissible (models/debug-bar-note.ts).
import { useEffect } from 'preact/hooks';
import type { ReadonlySignal } from '@preact/signals';
import type { DebugBarNote as Note } from '../models/debug-bar-note.ts';

export function DebugBarNote({
  note,
  items,
}: {
  note: Note;
  items: ReadonlySignal<ReadonlyArray<{ kind: string; actionName?: string }>>;
}) {
  const list = items.value;
  useEffect(() => note.noteItems(list), [list]);
  if (!note.visible.value) return null;
  return (
    <aside class="debug-bar-note" role="note" aria-labelledby="debug-bar-note-title" data-testid="debug-bar-note">
      <p id="debug-bar-note-title">
        <strong>About Chrome's "Mimo started debugging this browser" bar</strong>
      </p>
      <p>
        Chrome shows it while Mimo acts in a background tab: Mimo uses Chrome's debugger to click and type there without
        taking over your window. It goes away about 15 seconds after Mimo's last step. Pressing Cancel on the bar stops
        the step that is running.
      </p>
      <button type="button" onClick={() => note.dismiss()}>
        Got it
      </button>
    </aside>
  );
}
