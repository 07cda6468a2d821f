// A task's messages as an append-only log (`messages.jsonl`, one JSON message per line): an
// append writes one line, so its cost does not grow with the history (the old `messages.json`
// was rewritten whole on every append). A crash can leave a torn last line; reading drops it and
// trims the file back to its last complete line, so the next append starts on a fresh line.
// A `messages.json` from before the log is read first (and never written again).
// Appends go through a shared pool of held-open handles (append-files.ts): one write per append
// (or per batch of appends queued meanwhile) instead of open + write + close.
import { readFile, truncate } from 'node:fs/promises';
import type { AppendFiles } from './append-files.ts';
import type { Message } from './task-types.ts';

export interface MessageLog {
  /** Every message in append order (the legacy document's first). */
  read(): Promise<Message[]>;
  append(message: Message): Promise<void>;
}

export interface FsMessageLogOptions {
  file: string;
  /** Reads the legacy `messages.json` document, if any. */
  legacy(): Promise<Message[]>;
  /** The handle pool the line is appended through (it fsyncs if the store does). */
  appends: AppendFiles;
}

export function createFsMessageLog({ file, legacy, appends }: FsMessageLogOptions): MessageLog {
  return {
    async read() {
      const before = await legacy();
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return before;
        throw error;
      }
      const end = text.lastIndexOf('\n') + 1;
      if (end < text.length) await truncate(file, Buffer.byteLength(text.slice(0, end))); // a torn last line
      const out = [...before];
      for (const line of text.slice(0, end).split('\n')) if (line) out.push(JSON.parse(line) as Message);
      return out;
    },
    append: (message) => appends.append(file, `${JSON.stringify(message)}\n`),
  };
}
