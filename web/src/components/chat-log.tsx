import { useEffect, useRef, useState } from 'preact/hooks';
import type { ChatModel } from '../models/chat-model.ts';
import { AssistantEntry, NoticeEntry, UserEntry } from './chat-entry.tsx';
import { ImageViewer, type ImageView } from './image-viewer.tsx';
import { ToolStep } from './tool-step.tsx';

export function ChatLog({ chat, onRetry, empty }: { chat: ChatModel; onRetry: (id: string) => void; empty: string }) {
  const items = chat.items.value;
  const [image, setImage] = useState<ImageView | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);

  // Follow new text while the reader is at the bottom; leave them alone when they scrolled up.
  useEffect(() => {
    const el = list.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [items]);

  return (
    <div
      class="chat-log"
      ref={list}
      onScroll={(e) => {
        const el = e.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
      }}
    >
      {items.length === 0 && <p class="empty muted">{empty}</p>}
      <ol class="entries" aria-live="polite" aria-label="Conversation">
        {items.map((item) => {
          switch (item.kind) {
            case 'user':
              return <UserEntry key={item.key} item={item} onRetry={onRetry} />;
            case 'assistant':
              return <AssistantEntry key={item.key} item={item} />;
            case 'tool':
              return <ToolStep key={item.key} step={item} onOpenImage={(src, alt) => setImage({ src, alt })} />;
            case 'notice':
              return <NoticeEntry key={item.key} item={item} />;
          }
        })}
      </ol>
      {image && <ImageViewer image={image} onClose={() => setImage(null)} />}
    </div>
  );
}
