import { useEffect, useRef, useState } from 'preact/hooks';
import { normalizeText, type ChatItem, type NoticeItem } from '../models/chat-items.ts';
import type { ChatModel } from '../models/chat-model.ts';
import { groupSteps, type StepGroup } from '../text/step-words.ts';
import { AssistantEntry, NoticeEntry, UserEntry } from './chat-entry.tsx';
import type { ErrorActions } from './error-detail.tsx';
import { ImageViewer, type ImageView } from './image-viewer.tsx';
import { ToolStep } from './tool-step.tsx';

type Row = Exclude<ChatItem, { kind: 'tool' }> | StepGroup;

/** One notice per error: a notice that repeats the code of the step error just above it (or of the notice before it) is not shown again. */
function withoutRepeats(rows: Row[]): Row[] {
  const out: Row[] = [];
  for (const row of rows) {
    // The server also says a turn-stopping error in the answer's words: the notice says it once.
    const prev = out[out.length - 1];
    if (
      row.kind === 'assistant' &&
      prev?.kind === 'notice' &&
      prev.status === 'error' &&
      normalizeText(row.content) === normalizeText(prev.message)
    )
      continue;
    if (row.kind === 'notice' && row.code) {
      const prev = out[out.length - 1];
      const prevCode =
        prev?.kind === 'notice'
          ? prev.code
          : prev?.kind === 'step'
            ? prev.actions.find((a) => a.error)?.error?.code
            : undefined;
      if (prevCode === row.code) continue;
    }
    out.push(row);
  }
  return out;
}

export function ChatLog({
  chat,
  onRetry,
  empty,
  errorActions,
}: {
  chat: ChatModel;
  onRetry: (id: string) => void;
  empty: string;
  errorActions: ErrorActions;
}) {
  const items = chat.items.value;
  const [image, setImage] = useState<ImageView | null>(null);
  const [unseen, setUnseen] = useState(0);
  const list = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const lastCount = useRef(items.length);
  const lastUserKey = useRef<string | undefined>(undefined);

  const toBottom = () => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
    pinned.current = true;
    setUnseen(0);
  };

  // Follow new text while the reader is at the bottom; when they scrolled up, count what arrived
  // below. A message the person just sent always brings them down to it.
  useEffect(() => {
    const added = items.length - lastCount.current;
    lastCount.current = items.length;
    const newestUser = [...items].reverse().find((i) => i.kind === 'user');
    const sentNow =
      newestUser !== undefined &&
      newestUser.key !== lastUserKey.current &&
      newestUser.kind === 'user' &&
      newestUser.delivery === 'sending';
    lastUserKey.current = newestUser?.key;
    if (pinned.current || sentNow) toBottom();
    else if (added > 0) setUnseen((n) => n + added);
  }, [items]);

  const rows = withoutRepeats(groupSteps<Exclude<ChatItem, { kind: 'tool' }>>(items));
  return (
    <div class="chat-wrap">
      <div
        class="chat-log"
        ref={list}
        tabIndex={0}
        role="region"
        aria-label="Conversation"
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
          if (pinned.current && unseen) setUnseen(0);
        }}
      >
        {items.length === 0 && <p class="empty muted">{empty}</p>}
        <ol class="entries" aria-live="polite">
          {rows.map((row) => {
            switch (row.kind) {
              case 'user':
                return <UserEntry key={row.key} item={row} onRetry={onRetry} />;
              case 'assistant':
                return <AssistantEntry key={row.key} item={row} />;
              case 'step':
                return (
                  <ToolStep
                    key={row.key}
                    step={row}
                    actions={errorActions}
                    onOpenImage={(src, alt) => setImage({ src, alt })}
                  />
                );
              case 'notice':
                return <NoticeEntry key={row.key} item={row as NoticeItem} actions={errorActions} />;
            }
          })}
        </ol>
        {image && <ImageViewer image={image} onClose={() => setImage(null)} />}
      </div>
      {unseen > 0 && (
        <button type="button" class="btn jump-latest" data-testid="jump-latest" onClick={toBottom}>
          ↓ {unseen} new below
        </button>
      )}
    </div>
  );
}
