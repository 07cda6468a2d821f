// Answers for the runtime's fake plugin that behave like a browser for the UI: task_start opens
// a tab in a "Mimo" group and syncs the snapshot, screenshots are real PNGs uploaded to the
// presigned URL, readability returns an article.
import type { Answerer, BrowserActionFrame, FakePlugin } from '../../../../runtime/test-util/fake-plugin.ts';
import { pageScreenshot } from './png.ts';

export const TASK_TAB_ID = 101;

export const homeSnapshot = {
  windows: [{ windowId: 1, focused: true }],
  tabs: [
    {
      tabId: 1,
      windowId: 1,
      active: true,
      pinned: false,
      hidden: false,
      index: 0,
      url: 'https://home.example.net/',
      title: 'Home',
    },
  ],
  tabGroups: [],
  activeWindowId: 1,
  activeTabId: 1,
};

async function uploadScreenshot(frame: BrowserActionFrame): Promise<{ artifactId: string; url: string }> {
  const uploadUrl = new URL(String(frame.screenshotPresignedUrl));
  const artifactId = decodeURIComponent(uploadUrl.pathname.split('/')[3] ?? '');
  const response = await fetch(uploadUrl, {
    method: 'PUT',
    headers: { 'content-type': 'image/png' },
    body: new Uint8Array(pageScreenshot()),
  });
  if (!response.ok) throw new Error(`screenshot upload failed: ${response.status} ${await response.text()}`);
  return { artifactId, url: `${uploadUrl.origin}/api/artifacts/${artifactId}` };
}

export function fakeBrowser(plugin: () => FakePlugin | undefined): Answerer {
  return async (name, params, frame) => {
    switch (name) {
      case 'task_start': {
        const url = String(params.url ?? 'about:blank');
        await plugin()?.send({
          v: 1,
          type: 'full_state_sync',
          ...homeSnapshot,
          tabs: [
            ...homeSnapshot.tabs,
            {
              tabId: TASK_TAB_ID,
              windowId: 1,
              active: false,
              pinned: false,
              hidden: false,
              index: 1,
              url,
              title: 'Example Domain',
              groupId: 5,
            },
          ],
          tabGroups: [{ groupId: 5, windowId: 1, title: 'Mimo', color: 'blue' }],
          timestamp: Date.now(),
        });
        return {
          result: {
            status: 'success',
            result: { tabId: TASK_TAB_ID, windowId: 1, groupId: 5, url, title: 'Example Domain' },
          },
        };
      }
      case 'browser_screenshot':
        return {
          result: { status: 'success', result: { ...(await uploadScreenshot(frame)), width: 640, height: 400 } },
        };
      case 'browser_readability_extract':
        return {
          result: {
            status: 'success',
            result: { title: 'Example Domain', text: 'This domain is for use in illustrative examples in documents.' },
          },
        };
      case 'browser_dom_index':
        return {
          result: {
            status: 'success',
            result: {
              elements: [
                { clickId: 1, tag: 'a', text: 'More information...', href: 'https://www.iana.org/domains/example' },
              ],
            },
          },
        };
      case 'browser_debugger_attach':
        return { result: { status: 'success', result: { attached: true } } };
      case 'browser_wait_for_loaded':
        return { result: { status: 'success', result: { status: 'complete' } } };
      default:
        return { result: { status: 'success', result: {} } };
    }
  };
}
