// Server -> plugin `show_tab`: the person pressed "Show the tab" in the web UI, so the
// extension brings the task's tab forward (its window focused, its group expanded). The only
// time Mimo focuses a tab, and only on the person's request; the plugin checks that the tab is
// one of the task's own before it does.
import * as v from 'valibot';
import { ClientIdSchema, IdSchema, TabIdSchema, TaskIdSchema, TimestampSchema } from './ids.ts';
import { ProtocolVersionSchema } from './protocol-version.ts';

export const ShowTabCommandSchema = v.object({
  v: ProtocolVersionSchema,
  type: v.literal('show_tab'),
  id: v.optional(IdSchema),
  taskId: TaskIdSchema,
  clientId: ClientIdSchema,
  timestamp: TimestampSchema,
  tabId: TabIdSchema,
});
export type ShowTabCommand = v.InferOutput<typeof ShowTabCommandSchema>;
