import { useState } from 'preact/hooks';

/** The message box: Enter sends, Shift+Enter starts a new line. */
export function Composer({
  onSend,
  disabledReason,
}: {
  onSend: (text: string) => Promise<unknown>;
  disabledReason: string | null;
}) {
  const [text, setText] = useState('');
  const submit = () => {
    if (text.trim() === '' || disabledReason) return;
    const sending = text;
    setText('');
    void onSend(sending);
  };
  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label for="message" class="visually-hidden">
        Message to the agent
      </label>
      <textarea
        id="message"
        rows={2}
        value={text}
        placeholder="Ask the agent to do something in your browser…"
        aria-describedby="composer-hint"
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <button type="submit" class="btn btn-primary" disabled={text.trim() === '' || disabledReason !== null}>
        Send
      </button>
      <p id="composer-hint" class="hint muted">
        {disabledReason ?? 'Enter sends · Shift+Enter for a new line'}
      </p>
    </form>
  );
}
