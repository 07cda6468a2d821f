// Downloads started by a task tab go to a task folder, `Downloads/Mimo/<taskId>/`. Chrome does not
// let an extension's CDP session set the download behaviour (measured: `Browser.setDownloadBehavior`
// "wasn't found", `Page.setDownloadBehavior` "Cannot access browser-level commands"), so the
// interruption guard hears `Page.downloadWillBegin` on the task tab and this module files the
// matching download through `chrome.downloads.onDeterminingFilename` (the "downloads" permission).
// A download with no task is left exactly as Chrome named it.
import type { BrowserApi, DownloadItemInfo } from '../shared/browser-api.ts';

/** How long a download waits for its task tab's CDP event before it is treated as the person's. */
export const MATCH_WAIT_MS = 300;
/** An expected download not seen within this time is forgotten. */
export const EXPECT_TTL_MS = 10_000;
export const TASK_DOWNLOAD_FOLDER = 'Mimo';

export interface DownloadGuard {
  /** A task tab is starting a download of `url`: resolves with where it was saved (relative to Downloads), or undefined. */
  expect(taskId: string, url: string): Promise<string | undefined>;
}

export interface DownloadGuardDeps {
  browser: BrowserApi;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Whether any task tab is guarded (otherwise a download is the person's at once). */
  tasksGuarded(): boolean;
}

interface Expected {
  taskId: string;
  url: string;
  at: number;
  settle(path: string | undefined): void;
}

/** A file name safe inside the task folder (Chrome gives a bare name; keep it bare). */
export function taskDownloadPath(taskId: string, filename: string): string {
  const base = filename.split(/[\\/]/).pop() || 'download';
  return `${TASK_DOWNLOAD_FOLDER}/${taskId.replace(/[^A-Za-z0-9_-]/g, '_')}/${base}`;
}

export function installDownloadGuard(deps: DownloadGuardDeps): DownloadGuard {
  const expected: Expected[] = [];
  const prune = () => {
    const limit = deps.now() - EXPECT_TTL_MS;
    for (let i = expected.length - 1; i >= 0; i--) {
      if (expected[i]!.at < limit) expected.splice(i, 1)[0]!.settle(undefined);
    }
  };
  const take = (item: DownloadItemInfo): Expected | undefined => {
    prune();
    const index = expected.findIndex((e) => e.url === item.url || e.url === item.finalUrl);
    return index < 0 ? undefined : expected.splice(index, 1)[0];
  };

  async function decide(item: DownloadItemInfo): Promise<Expected | undefined> {
    let match = take(item);
    if (!match && deps.tasksGuarded()) {
      // The CDP event usually comes first; give it a moment otherwise (only while tasks run).
      await deps.sleep(MATCH_WAIT_MS);
      match = take(item);
    }
    return match;
  }

  deps.browser.downloads?.onDeterminingFilename.addListener((item, suggest) => {
    void decide(item).then(
      (match) => {
        if (!match) return suggest();
        const filename = taskDownloadPath(match.taskId, item.filename);
        suggest({ filename, conflictAction: 'uniquify' });
        match.settle(filename);
      },
      () => suggest(),
    );
    return true; // suggest() is called asynchronously
  });

  return {
    expect(taskId, url) {
      if (!deps.browser.downloads) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const entry: Expected = { taskId, url, at: deps.now(), settle: resolve };
        expected.push(entry);
        // Never filed (cancelled, or refused by Chrome): the report still goes out.
        void deps.sleep(EXPECT_TTL_MS).then(() => {
          const index = expected.indexOf(entry);
          if (index >= 0) expected.splice(index, 1);
          resolve(undefined);
        });
      });
    },
  };
}
