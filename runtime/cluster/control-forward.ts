// A task command sent to the node that owns the task, over the adapter. The request names its
// node (`to`) and an id; the owner answers with a reply event naming the asker, so the answer
// arrives the moment the owner has it (an ack through `serverSideEmit` waits for every node,
// a dead one included, until its timeout). While it waits the asker checks, every `pollMs`,
// that the owner still holds the task: when its lock is gone (it died, it handed over), the wait
// ends at once with `owner_gone` and the asker claims the task itself.
import { randomBytes } from 'node:crypto';
import type { Namespace } from '../../transport/server/index.ts';
import type { ControlResult } from '../services/task-control.ts';
import type { Clock } from '../clock/index.ts';

const REQUEST = 'mimo:control';
const REPLY = 'mimo:control_reply';

export interface ControlRequest {
  id: string;
  from: string;
  to: string;
  taskId: string;
  method: string;
  args: unknown[];
}

type Reply = { id: string; to: string; result: ControlResult | null };
export type ForwardOutcome =
  { kind: 'answer'; result: ControlResult } | { kind: 'not_owner' } | { kind: 'owner_gone' } | { kind: 'timeout' };

export interface Forwarder {
  forward(to: string, taskId: string, method: string, args: unknown[]): Promise<ForwardOutcome>;
}

export function createForwarder(deps: {
  nsp: Namespace;
  /** This node's id (read when needed: the node may not have joined when this is built). */
  nodeId: () => string;
  /** Who holds the task now (null: nobody alive). */
  ownerOf: (taskId: string) => Promise<string | null>;
  /** Runs a request addressed to this node; null when it does not own the task. */
  handle: (request: ControlRequest) => Promise<ControlResult | null>;
  timeoutMs?: number;
  pollMs?: number;
  /** The timers of the wait and the poll (the injected clock; default Node's). */
  clock?: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  log: (entry: object) => void;
}): Forwarder {
  const clock = deps.clock ?? { setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms), clearTimeout };
  const { nsp } = deps;
  const waiting = new Map<string, (reply: Reply) => void>();

  nsp.on(REQUEST, (request: ControlRequest) => {
    if (request?.to !== deps.nodeId()) return;
    const reply = (result: ControlResult | null) =>
      nsp.serverSideEmit(REPLY, { id: request.id, to: request.from, result } satisfies Reply);
    deps
      .handle(request)
      .then(reply, (error: unknown) =>
        reply({ ok: false, error: { code: 'INTERNAL', message: String((error as Error)?.message ?? error) } }),
      );
  });
  nsp.on(REPLY, (reply: Reply) => {
    if (reply?.to === deps.nodeId()) waiting.get(reply.id)?.(reply);
  });

  return {
    forward(to, taskId, method, args) {
      const nodeId = deps.nodeId();
      const id = `${nodeId}:${randomBytes(6).toString('hex')}`;
      return new Promise<ForwardOutcome>((resolve) => {
        let done = false;
        const finish = (outcome: ForwardOutcome) => {
          if (done) return;
          done = true;
          waiting.delete(id);
          clock.clearTimeout(timer);
          clock.clearTimeout(poll);
          resolve(outcome);
        };
        waiting.set(id, (reply) =>
          finish(reply.result ? { kind: 'answer', result: reply.result } : { kind: 'not_owner' }),
        );
        const timer = clock.setTimeout(() => finish({ kind: 'timeout' }), deps.timeoutMs ?? 15_000);
        let poll: unknown;
        const check = () => {
          poll = clock.setTimeout(() => {
            deps.ownerOf(taskId).then(
              (owner) => (owner !== to ? finish({ kind: 'owner_gone' }) : !done && check()),
              () => !done && check(), // the database is away: keep waiting for the answer
            );
          }, deps.pollMs ?? 200);
        };
        check();
        try {
          nsp.serverSideEmit(REQUEST, { id, from: nodeId, to, taskId, method, args } satisfies ControlRequest);
        } catch (error) {
          deps.log({ event: 'control_forward_failed', taskId, to, error: String(error) });
          finish({ kind: 'timeout' });
        }
      });
    },
  };
}
