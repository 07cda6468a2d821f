// Readable names for inspected actors: "task 01M8…", "action click #3", "page prep #2",
// "plugin UI", instead of XState session ids like `x:116`.
const shortId = (id: string) => (id.length > 8 ? `${id.slice(0, 4)}…${id.slice(-4)}` : id);

export interface LabelInput {
  machineId?: string;
  name?: string;
  context?: unknown;
  actorId: string;
}

const ctx = (input: LabelInput, key: string): string | undefined => {
  const value =
    typeof input.context === 'object' && input.context !== null
      ? (input.context as Record<string, unknown>)[key]
      : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** `index` counts the actors of the same machine in this task (1-based). */
export function actorLabel(input: LabelInput, index: number): string {
  switch (input.machineId) {
    case 'task':
      return `task ${shortId(ctx(input, 'taskId') ?? input.name?.replace(/^task:/, '') ?? input.actorId)}`;
    case 'action': {
      const name = ctx(input, 'actionName')
        ?.replace(/^browser_/, '')
        .replace(/_/g, ' ');
      return `action ${name ? `${name} ` : ''}#${index}`;
    }
    case 'pagePrep':
      return `page prep #${index}`;
    case 'pluginUi':
      return 'plugin UI';
    case 'run':
      return `run #${index}`;
    default:
      return `${input.machineId ?? 'actor'} ${input.name ?? input.actorId}`;
  }
}

/** XState's own events (`xstate.init`, `xstate.done.actor.…`, `xstate.after…`): hidden unless asked for. */
export const isInternalEvent = (type: string | undefined) => type !== undefined && type.startsWith('xstate.');
