// The main frame's navigation state of one tab, folded from CDP events (pure: no IO). Page
// lifecycle events are keyed by loaderId, so the old document's "load" can never stand for the
// new one; same-document navigations (hash, history API) are recognised; the main document's
// HTTP status comes from Network.responseReceived and a failed load (refused, DNS, TLS) from
// Network.loadingFailed / the error page's unreachableUrl.

export interface NavDocument {
  loaderId?: string;
  /** The URL the document is for (for an error page: the URL that could not be loaded). */
  url: string;
  loaded: boolean;
  httpStatus?: number;
  /** Set when the frame shows the browser's error page: the net error name when known. */
  netError?: string;
}

export interface PendingNavigation {
  url?: string;
  requestId?: string;
  netError?: string;
}

export interface NavState {
  frameId?: string;
  doc: NavDocument | null;
  /** A navigation requested or started in the main frame that has not committed yet. */
  pending: PendingNavigation | null;
  /** Bumped on every commit and same-document navigation. */
  seq: number;
  /** What the latest bump was. */
  last?: { url: string; sameDocument: boolean };
  /** HTTP status by loaderId for responses that arrive before their commit. */
  statusByLoader: Record<string, number>;
}

export function emptyNavState(): NavState {
  return { doc: null, pending: null, seq: 0, statusByLoader: {} };
}

type Params = Record<string, any>;

const isMain = (state: NavState, frameId: unknown) => state.frameId === undefined || frameId === state.frameId;

/** Folds one CDP event into the state; returns whether anything changed. */
export function applyNavEvent(state: NavState, method: string, params: Params = {}): boolean {
  switch (method) {
    case 'Page.frameRequestedNavigation': {
      if (!isMain(state, params.frameId) || (params.disposition && params.disposition !== 'currentTab')) return false;
      state.pending = { ...(state.pending ?? {}), url: params.url };
      return true;
    }
    case 'Page.frameStartedNavigating': {
      if (!isMain(state, params.frameId)) return false;
      if (typeof params.navigationType === 'string' && /sameDocument/i.test(params.navigationType)) return false;
      state.pending = { ...(state.pending ?? {}), url: params.url };
      return true;
    }
    case 'Network.requestWillBeSent': {
      if (params.type !== 'Document' || !isMain(state, params.frameId) || params.requestId !== params.loaderId)
        return false;
      state.pending = { ...(state.pending ?? {}), url: params.request?.url, requestId: params.requestId };
      delete state.pending.netError;
      return true;
    }
    case 'Network.responseReceived': {
      if (params.type !== 'Document' || !isMain(state, params.frameId) || typeof params.response?.status !== 'number')
        return false;
      const loaderId = String(params.loaderId ?? '');
      state.statusByLoader[loaderId] = params.response.status;
      const keys = Object.keys(state.statusByLoader);
      if (keys.length > 20) delete state.statusByLoader[keys[0]!];
      if (state.doc && state.doc.loaderId === loaderId) state.doc.httpStatus = params.response.status;
      return true;
    }
    case 'Network.loadingFailed': {
      if (!state.pending || params.requestId !== state.pending.requestId || params.canceled) return false;
      state.pending.netError = String(params.errorText || 'net::ERR_FAILED');
      return true;
    }
    case 'Page.frameNavigated': {
      const frame = params.frame as Params | undefined;
      if (!frame || frame.parentId) return false;
      state.frameId = frame.id;
      const failed = typeof frame.unreachableUrl === 'string' && frame.unreachableUrl !== '';
      const doc: NavDocument = {
        loaderId: frame.loaderId,
        url: failed ? frame.unreachableUrl : frame.url,
        loaded: params.type === 'BackForwardCacheRestore',
      };
      const status = frame.loaderId ? state.statusByLoader[frame.loaderId] : undefined;
      if (status !== undefined) doc.httpStatus = status;
      if (failed) doc.netError = state.pending?.netError ?? 'net::ERR_FAILED';
      state.doc = doc;
      state.pending = null;
      state.seq += 1;
      state.last = { url: doc.url, sameDocument: false };
      return true;
    }
    case 'Page.navigatedWithinDocument': {
      if (!isMain(state, params.frameId) || !state.doc) return false;
      state.doc.url = params.url;
      if (state.pending && (!state.pending.requestId || state.pending.url === params.url)) state.pending = null;
      state.seq += 1;
      state.last = { url: params.url, sameDocument: true };
      return true;
    }
    case 'Page.lifecycleEvent': {
      if (params.name !== 'load' || !isMain(state, params.frameId) || !state.doc) return false;
      if (state.doc.loaderId !== undefined && params.loaderId !== state.doc.loaderId) return false;
      state.doc.loaded = true;
      return true;
    }
    case 'Page.frameStoppedLoading': {
      // A navigation that stops before committing was cancelled (204, download, replaced).
      if (!isMain(state, params.frameId) || !state.pending || state.pending.netError) return false;
      state.pending = null;
      return true;
    }
    default:
      return false;
  }
}

/** Seeds the state from Page.getFrameTree's main frame when tracking starts mid-life. */
export function seedNavState(state: NavState, frame: Params, loaded: boolean, pendingUrl?: string): void {
  state.frameId = frame.id;
  const failed = typeof frame.unreachableUrl === 'string' && frame.unreachableUrl !== '';
  state.doc = { loaderId: frame.loaderId, url: failed ? frame.unreachableUrl : frame.url, loaded: loaded || failed };
  if (failed) state.doc.netError = 'net::ERR_FAILED';
  if (pendingUrl !== undefined) state.pending = { url: pendingUrl };
}

/** The navigation since `seq`, or the one still pending. */
export function navigationSince(
  state: NavState,
  seq: number,
): { url: string; sameDocument: boolean; committed: boolean; httpStatus?: number } | null {
  if (state.pending) return { url: state.pending.url ?? state.doc?.url ?? '', sameDocument: false, committed: false };
  if (state.seq === seq || !state.last) return null;
  const out: { url: string; sameDocument: boolean; committed: boolean; httpStatus?: number } = {
    url: state.last.url,
    sameDocument: state.last.sameDocument,
    committed: true,
  };
  if (!state.last.sameDocument && state.doc?.httpStatus !== undefined) out.httpStatus = state.doc.httpStatus;
  return out;
}
