// Which tab "the new tab" / "the other tab" is (seed 002): never the task's own tab; when the
// task tab is in a tab group, only tabs of that group (the orchestrator refuses others); the
// tab showing the URL of the link we clicked first, then the tab whose URL/title shares most
// words with the link's text, then the newest (highest tabId).
import type { BrowserContext, BrowserTab } from '../llm-types.ts';
import { keywordsOf } from './request-text.ts';

export function chooseOtherTab(
  snapshot: BrowserContext | undefined,
  currentTabId: number | null,
  expectedUrl?: string,
  linkText?: string,
): BrowserTab | undefined {
  if (!snapshot) return undefined;
  const taskTabId = snapshot.taskTabId ?? currentTabId;
  const taskTab = snapshot.tabs.find((t) => t.tabId === taskTabId);
  const groupId = taskTab?.groupId !== undefined && taskTab.groupId >= 0 ? taskTab.groupId : undefined;
  const wanted = expectedUrl ? stripHash(expectedUrl) : undefined;
  let others = snapshot.tabs.filter((t) => t.tabId !== taskTabId && (groupId === undefined || t.groupId === groupId));
  // A tab just opened may not be grouped yet: accept it outside the group only by its exact URL.
  if (others.length === 0 && wanted)
    others = snapshot.tabs.filter((t) => t.tabId !== taskTabId && t.url !== undefined && stripHash(t.url) === wanted);
  if (others.length === 0) return undefined;
  const byUrl = wanted ? others.filter((t) => t.url !== undefined && stripHash(t.url) === wanted) : [];
  const pool = byUrl.length > 0 ? byUrl : others;
  const words = new Set(keywordsOf(linkText ?? ''));
  const overlap = (tab: BrowserTab) =>
    keywordsOf(`${tab.url ?? ''} ${tab.title ?? ''}`).filter((w) => words.has(w)).length;
  return [...pool].sort((a, b) => overlap(b) - overlap(a) || b.tabId - a.tabId)[0];
}

function stripHash(url: string): string {
  return url.replace(/#.*$/, '');
}

/** An element's href made absolute against the page URL, when possible. */
export function absoluteHref(href: string | undefined, pageUrl: string): string | undefined {
  if (!href) return undefined;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return undefined;
  }
}
