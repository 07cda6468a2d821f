// The child ids of a task actor's children are fixed, never the action ids. XState memoises a
// state node's transition candidates per event type for the life of the machine definition
// (StateNode.next: `candidates-${eventType}`), so a child id per action
// (`xstate.done.actor.<actionId>`) would leave one cache entry per action ever run: the soak's
// heap at rest grew with the number of actions. The task's actions (one in flight, seed 000 §2.1
// rule 1) run in its one action actor `ACTION_CHILD_ID`; page preparations are no actors at all
// (the task actor runs them: task.machine.ts).
export const ACTION_CHILD_ID = 'action';
