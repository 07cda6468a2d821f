// The browser snapshot: windows, tabs and tab groups of the user's browser (seed 001 §2.2, §3.5, §3.6).
// Field names follow chrome.tabs / chrome.windows / chrome.tabGroups, with `id` spelled `tabId`,
// `windowId`, `groupId` as in the seed examples.
import * as v from 'valibot';
import { GroupIdSchema, NonNegativeIntSchema, TabIdSchema, TimestampSchema, WindowIdSchema } from './ids.ts';

export const TabLoadStatusSchema = v.picklist(['unloaded', 'loading', 'complete']);
export type TabLoadStatus = v.InferOutput<typeof TabLoadStatusSchema>;

export const TabSchema = v.object({
  tabId: TabIdSchema,
  windowId: WindowIdSchema,
  url: v.optional(v.string()),
  title: v.optional(v.string()),
  favIconUrl: v.optional(v.string()),
  active: v.boolean(),
  pinned: v.boolean(),
  hidden: v.boolean(),
  index: NonNegativeIntSchema,
  /** -1 or absent: not in a group. */
  groupId: v.optional(GroupIdSchema),
  status: v.optional(TabLoadStatusSchema),
  audible: v.optional(v.boolean()),
  muted: v.optional(v.boolean()),
  discarded: v.optional(v.boolean()),
  incognito: v.optional(v.boolean()),
  openerTabId: v.optional(TabIdSchema),
  lastAccessed: v.optional(v.number()),
});
export type Tab = v.InferOutput<typeof TabSchema>;

export const WindowTypeSchema = v.picklist(['normal', 'popup', 'panel', 'app', 'devtools']);
export const WindowStateSchema = v.picklist(['normal', 'minimized', 'maximized', 'fullscreen', 'locked-fullscreen']);

/** Named BrowserWindow so it does not shadow the DOM's global `Window` type in web/extension code. */
export const BrowserWindowSchema = v.object({
  windowId: WindowIdSchema,
  focused: v.boolean(),
  type: v.optional(WindowTypeSchema),
  state: v.optional(WindowStateSchema),
  incognito: v.optional(v.boolean()),
  width: v.optional(NonNegativeIntSchema),
  height: v.optional(NonNegativeIntSchema),
});
export type BrowserWindow = v.InferOutput<typeof BrowserWindowSchema>;

export const TabGroupSchema = v.object({
  groupId: GroupIdSchema,
  windowId: WindowIdSchema,
  title: v.optional(v.string()),
  /** chrome.tabGroups.Color ('grey', 'blue', ...); a plain string so a new colour cannot reject a sync. */
  color: v.optional(v.string()),
  collapsed: v.optional(v.boolean()),
});
export type TabGroup = v.InferOutput<typeof TabGroupSchema>;

/** The part of a snapshot the plugin sends in full_state_sync. */
export const snapshotContentEntries = {
  windows: v.array(BrowserWindowSchema),
  tabs: v.array(TabSchema),
  tabGroups: v.array(TabGroupSchema),
  activeWindowId: v.nullable(WindowIdSchema),
  activeTabId: v.nullable(TabIdSchema),
};

/** The authoritative snapshot the server keeps and pushes (snapshotSync `state`). */
export const SnapshotStateSchema = v.object({
  ...snapshotContentEntries,
  lastUpdated: TimestampSchema,
});
export type SnapshotState = v.InferOutput<typeof SnapshotStateSchema>;

/** A snapshot older than this is marked `stale` (seed 001 §2.2). */
export const SNAPSHOT_STALE_AFTER_MS = 30_000;
