// `tab_event`: incremental snapshot change from the plugin (seed 001 §3.5 (3)).
// A variant on `eventType`, so each kind carries the payload the snapshot store needs.
import * as v from 'valibot';
import {
  ClientIdSchema,
  GroupIdSchema,
  IdSchema,
  NonNegativeIntSchema,
  TabIdSchema,
  TimestampSchema,
  WindowIdSchema,
} from './ids.ts';
import { ProtocolVersionSchema } from './protocol-version.ts';
import { variantMessage } from './variant-message.ts';
import { BrowserWindowSchema, TabGroupSchema, TabSchema } from './snapshot.ts';

export const tabEventTypes = [
  'tab_created',
  'tab_updated',
  'tab_removed',
  'tab_activated',
  'tab_moved',
  'tab_attached',
  'tab_detached',
  'window_created',
  'window_removed',
  'window_focus_changed',
  'group_created',
  'group_updated',
  'group_removed',
] as const;
export type TabEventType = (typeof tabEventTypes)[number];

function tabEvent<const TEvent extends TabEventType, const TEntries extends v.ObjectEntries>(
  eventType: TEvent,
  entries: TEntries,
) {
  return v.object({
    v: ProtocolVersionSchema,
    type: v.literal('tab_event'),
    id: v.optional(IdSchema),
    clientId: v.optional(ClientIdSchema),
    traceId: v.optional(v.string()),
    eventType: v.literal(eventType),
    timestamp: TimestampSchema,
    ...entries,
  });
}

const optionalTabId = { tabId: v.optional(TabIdSchema) };
const withTab = { tab: TabSchema, ...optionalTabId };

export const TabEventSchema = v.variant(
  'eventType',
  [
    tabEvent('tab_created', withTab),
    tabEvent('tab_updated', withTab),
    tabEvent('tab_removed', {
      tabId: TabIdSchema,
      windowId: v.optional(WindowIdSchema),
      /** True when the tab went away because its window closed. */
      isWindowClosing: v.optional(v.boolean()),
    }),
    tabEvent('tab_activated', { tabId: TabIdSchema, windowId: WindowIdSchema }),
    tabEvent('tab_moved', {
      tabId: TabIdSchema,
      windowId: WindowIdSchema,
      fromIndex: v.optional(NonNegativeIntSchema),
      toIndex: v.optional(NonNegativeIntSchema),
      tab: v.optional(TabSchema),
    }),
    tabEvent('tab_attached', withTab),
    tabEvent('tab_detached', { tabId: TabIdSchema, windowId: v.optional(WindowIdSchema) }),
    tabEvent('window_created', { window: BrowserWindowSchema }),
    tabEvent('window_removed', { windowId: WindowIdSchema }),
    /** windowId -1 when no Chrome window has focus. */
    tabEvent('window_focus_changed', { windowId: WindowIdSchema }),
    tabEvent('group_created', { group: TabGroupSchema }),
    tabEvent('group_updated', { group: TabGroupSchema }),
    tabEvent('group_removed', { groupId: GroupIdSchema, windowId: v.optional(WindowIdSchema) }),
  ],
  variantMessage,
);
export type TabEvent = v.InferOutput<typeof TabEventSchema>;
