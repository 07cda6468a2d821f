// The frontend events as the runtime relays them: every registered secret is replaced
// before an event leaves (task titles in taskListChanged, step summaries, notes), and the live
// chatDelta stream too. A secret can arrive split over two deltas ("hun" + "ter2"), so the
// stream of each message (targetEventId) holds back a tail that could still become a secret and
// sends it with the next delta, or with the finishing one. The recorder hears what the frontends
// hear (it sits behind the inner sink's emit), so recordings get the redacted stream as well.
import type { FrontendEventInput, FrontendEventSink } from '../socket/frontend-events.ts';
import { redactSecretValues, type SecretRegistry } from './redact.ts';

/** Streams whose finishing delta never came are dropped beyond this many (their tail flushed). */
const MAX_OPEN_STREAMS = 256;

/** The longest tail of `text` that is the start of some secret (or a whole short one, whose end is not known yet). */
export function heldTail(text: string, secrets: readonly string[]): number {
  let hold = 0;
  for (const secret of secrets) {
    const max = Math.min(secret.length, text.length);
    for (let n = max; n > hold; n--) {
      // Cheap first: the tail must start with the secret's first character.
      if (text.charCodeAt(text.length - n) !== secret.charCodeAt(0)) continue;
      if (secret.startsWith(text.slice(text.length - n))) {
        hold = n;
        break;
      }
    }
  }
  return hold;
}

export interface StreamRedactor {
  /** The part of this delta that is safe to show now (redacted). */
  push(content: string): string;
  /** Everything still held, redacted (the stream finished). */
  flush(): string;
}

export function createStreamRedactor(secrets: SecretRegistry): StreamRedactor {
  let pending = '';
  return {
    push(content) {
      const text = secrets.redactText(pending + content);
      const hold = heldTail(text, secrets.values());
      pending = text.slice(text.length - hold);
      return text.slice(0, text.length - hold);
    },
    flush() {
      const text = secrets.redactText(pending);
      pending = '';
      return text;
    },
  };
}

export function redactingEventSink(sink: FrontendEventSink, secrets: SecretRegistry): FrontendEventSink {
  const streams = new Map<string, StreamRedactor>();
  const redactEvent = (event: FrontendEventInput): FrontendEventInput => {
    if (event.type !== 'chatDelta') return redactSecretValues(event, secrets);
    const key = event.targetEventId;
    let stream = streams.get(key);
    if (!stream) {
      if (streams.size >= MAX_OPEN_STREAMS) streams.delete(streams.keys().next().value!);
      stream = createStreamRedactor(secrets);
      streams.set(key, stream);
    }
    const content = event.delta?.content ?? '';
    let shown = stream.push(content);
    if (event.finished) {
      shown += stream.flush();
      streams.delete(key);
    }
    return redactSecretValues({ ...event, delta: { ...event.delta, content: shown } }, secrets);
  };
  return {
    envelope: (event, taskId) => sink.envelope(redactSecretValues(event, secrets), taskId),
    // The seq (given or the task's next) is the inner sink's: redaction does not change the order.
    toTask: (taskId, event, traceId, seq) => sink.toTask(taskId, redactEvent(event), traceId, seq),
    prepare: (taskId, event, traceId, seq) => sink.prepare(taskId, redactEvent(event), traceId, seq),
    send: (envelope) => sink.send(envelope),
    toAllFrontends: (event, taskId) => sink.toAllFrontends(redactSecretValues(event, secrets), taskId),
    seq: sink.seq,
  };
}
