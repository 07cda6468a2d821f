// dom_index generations per tab (stale-ref protection). clickIds are unique per tab across
// generations: each index starts where the previous one ended, so an id from an older index is
// recognisably old (below the current firstId) instead of silently naming a new element.
// Kept in storage.session when available so a restarted service worker still knows them.
import type { StorageArea } from '../shared/browser-api.ts';
import type { AxRefNode, RefGeneration } from '../page/page-ops.ts';

export const ELEMENT_REFS_KEY = 'mimo.elementRefs';
/** Attribute an accessibility-tree ref is marked with just before an action (ax-target.ts). */
export const AX_MARK_ATTR = 'data-mimo_ax_target';

interface TabRefs {
  nextId: number;
  current: RefGeneration | null;
}

export type RefCheck =
  { ok: true; ref: RefGeneration } | { ok: false; reason: 'no_index' | 'stale' | 'not_found'; message: string };

export interface ElementRefs {
  /** First clickId of the next generation for this tab. */
  nextFirstId(tabId: number): Promise<number>;
  /** Records the generation the page agent just numbered. */
  record(tabId: number, generation: RefGeneration): Promise<void>;
  /**
   * Numbers the nodes of an accessibility-tree index and records it: a node that was in the
   * previous AX index of the same document keeps its clickId (stable refs while the node lives),
   * a new one gets the next id of the tab.
   */
  recordAx(tabId: number, loaderId: string, nodes: AxRefNode[]): Promise<number[]>;
  /** Whether `clickId` belongs to the tab's current generation (the page checks the document). */
  check(tabId: number, clickId: number): Promise<RefCheck>;
  current(tabId: number): Promise<RefGeneration | null>;
  forget(tabId: number): Promise<void>;
}

export function createElementRefs(storage: StorageArea | undefined): ElementRefs {
  let loaded: Promise<Map<number, TabRefs>> | null = null;
  const load = (): Promise<Map<number, TabRefs>> =>
    (loaded ??= (storage ? storage.get(ELEMENT_REFS_KEY) : Promise.resolve({} as Record<string, unknown>)).then(
      (stored) => {
        const map = new Map<number, TabRefs>();
        const raw = stored[ELEMENT_REFS_KEY];
        if (raw && typeof raw === 'object') {
          for (const [tabId, refs] of Object.entries(raw as Record<string, TabRefs>)) {
            if (refs && typeof refs.nextId === 'number') map.set(Number(tabId), refs);
          }
        }
        return map;
      },
      () => new Map(),
    ));
  const persist = async (map: Map<number, TabRefs>): Promise<void> => {
    await storage?.set({ [ELEMENT_REFS_KEY]: Object.fromEntries(map) }).catch(() => {});
  };
  const entry = (map: Map<number, TabRefs>, tabId: number): TabRefs => {
    let refs = map.get(tabId);
    if (!refs) map.set(tabId, (refs = { nextId: 1, current: null }));
    return refs;
  };

  return {
    async nextFirstId(tabId) {
      return entry(await load(), tabId).nextId;
    },
    async record(tabId, generation) {
      const map = await load();
      const refs = entry(map, tabId);
      refs.current = generation;
      refs.nextId = Math.max(refs.nextId, generation.lastId + 1);
      await persist(map);
    },
    async recordAx(tabId, loaderId, nodes) {
      const map = await load();
      const refs = entry(map, tabId);
      const previous = refs.current?.ax?.loaderId === loaderId ? refs.current.ax.nodes : {};
      // Backend node ids are per renderer process: a node is known by its frame and id.
      const kept = new Map<string, number>();
      for (const [id, node] of Object.entries(previous)) kept.set(`${node.f}:${node.b}`, Number(id));
      const ids: number[] = [];
      const table: Record<string, AxRefNode> = {};
      for (const node of nodes) {
        const id = kept.get(`${node.f}:${node.b}`) ?? refs.nextId++;
        ids.push(id);
        table[id] = node;
      }
      const firstId = ids.length > 0 ? Math.min(...ids) : refs.nextId;
      refs.current = {
        docToken: `ax:${loaderId}`,
        attr: AX_MARK_ATTR,
        firstId,
        lastId: Math.max(firstId, refs.nextId - 1),
        ax: { loaderId, nodes: table },
      };
      // Not awaited: the table is in memory now; the copy for a restarted worker may land a moment later.
      void persist(map);
      return ids;
    },
    async check(tabId, clickId) {
      const refs = (await load()).get(tabId);
      const current = refs?.current ?? null;
      if (!current)
        return {
          ok: false,
          reason: 'no_index',
          message: `tab ${tabId} has not been indexed; call browser_dom_index first`,
        };
      if (current.ax) {
        if (current.ax.nodes[clickId]) return { ok: true, ref: current };
        if (clickId < refs!.nextId)
          return {
            ok: false,
            reason: 'stale',
            message: `clickId ${clickId} is not in the latest browser_dom_index (its element left the page or the view); index again`,
          };
        return { ok: false, reason: 'not_found', message: `clickId ${clickId} was never assigned on this tab` };
      }
      if (clickId < current.firstId) {
        return {
          ok: false,
          reason: 'stale',
          message: `clickId ${clickId} is from an older browser_dom_index (current ids are ${current.firstId}-${current.lastId}); index again`,
        };
      }
      if (clickId > current.lastId) {
        return {
          ok: false,
          reason: 'not_found',
          message: `clickId ${clickId} was never assigned (current ids are ${current.firstId}-${current.lastId})`,
        };
      }
      return { ok: true, ref: current };
    },
    async current(tabId) {
      return (await load()).get(tabId)?.current ?? null;
    },
    async forget(tabId) {
      const map = await load();
      const refs = map.get(tabId);
      // Keep nextId so ids stay unique for the tab's lifetime; drop the generation.
      if (refs) {
        refs.current = null;
        await persist(map);
      }
    },
  };
}
