// Takeover, Resume and Stop for a tool task (an MCP session's tab, tool-task.ts): the same events
// a chat task gets, without what only a chat task has (stored status, notes, plugin-UI mirror).
// The orchestrator answers with this when the task id is not a chat task's.
import { taskStatusOf } from '../../machines/index.ts';
import type { ControlResult } from '../services/task-control.ts';
import type { TaskTree } from './task-trees.ts';

export type ToolTaskCommand = { type: 'takeover'; reason: string } | { type: 'resume' } | { type: 'stop' };

export function controlToolTask(tree: TaskTree, command: ToolTaskCommand): ControlResult {
  const status = () => taskStatusOf(tree.actor.getSnapshot());
  switch (command.type) {
    case 'takeover': {
      const before = status();
      tree.actor.send({ type: 'TAKEOVER', reason: command.reason });
      if (status() !== 'takeover')
        return { ok: false, error: { code: 'CONFLICT', message: `a ${before} task cannot be taken over` } };
      return { ok: true, data: { status: status() } };
    }
    case 'resume':
      if (status() !== 'takeover')
        return { ok: false, error: { code: 'CONFLICT', message: 'the task is not in takeover' } };
      tree.actor.send({ type: 'RESUME' });
      return { ok: true, data: { status: status() } };
    case 'stop':
      if (tree.cancel) tree.cancel();
      else tree.actor.send({ type: 'STOP', closeTab: false });
      return { ok: true, data: { status: status() } };
  }
}
