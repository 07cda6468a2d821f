// browser_screenshot: CDP Page.captureScreenshot of the (background) task tab, uploaded as a
// PNG artifact. chrome.tabs.captureVisibleTab only sees the active tab, so without CDP the
// fallback works only when the user happens to be looking at the task tab.
import type { ActionResult } from '../../../transport/contracts/index.ts';
import type { ActionHandler } from '../action-context.ts';
import { fail, messageOf } from '../action-failure.ts';
import { CdpError } from '../cdp-sessions.ts';
import { base64ToBytes, pngSize } from '../png-size.ts';
import { requireTaskTab } from '../tab-guard.ts';

interface LayoutMetrics {
  cssContentSize?: { width: number; height: number };
  contentSize?: { width: number; height: number };
}

/** How long a screenshot waits for a navigation in flight to load before capturing anyway. */
const NAVIGATION_SETTLE_MS = 4_000;

/** Chrome refuses captures larger than this in either dimension. */
const MAX_CAPTURE_PX = 16_384;

export const screenshot: ActionHandler<'browser_screenshot'> = async (params, ctx) => {
  const { tab } = await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const warnings: string[] = [];
  // Presign while the capture runs (one round trip less on the critical path).
  const artifact = { taskId: ctx.taskId, kind: 'screenshot', contentType: 'image/png' } as const;
  const target = ctx.artifacts.reserve(
    ctx.action.screenshotPresignedUrl ? { ...artifact, uploadUrl: ctx.action.screenshotPresignedUrl } : artifact,
  );
  target.catch(() => {}); // awaited below; a capture failure must not leave it unhandled
  let base64: string;
  // A navigation in flight: capture the new document once it has loaded, not a frame in between
  // (which can stall the capture until its timeout).
  if (ctx.nav.state(params.tabId)?.pending) await ctx.nav.loaded(params.tabId, NAVIGATION_SETTLE_MS).catch(() => {});
  try {
    const captureParams: Record<string, unknown> = { format: 'png', optimizeForSpeed: true };
    if (params.fullPage) {
      const metrics = await ctx.cdp.send<LayoutMetrics>(params.tabId, 'Page.getLayoutMetrics');
      const size = metrics.cssContentSize ?? metrics.contentSize;
      if (size) {
        const height = Math.min(Math.ceil(size.height), MAX_CAPTURE_PX);
        if (height < size.height) warnings.push(`page is taller than ${MAX_CAPTURE_PX}px; the screenshot is cut`);
        captureParams.clip = { x: 0, y: 0, width: Math.min(Math.ceil(size.width), MAX_CAPTURE_PX), height, scale: 1 };
        captureParams.captureBeyondViewport = true;
      }
    }
    ({ data: base64 } = await ctx.cdp.send<{ data: string }>(params.tabId, 'Page.captureScreenshot', captureParams));
  } catch (error) {
    if (!(error instanceof CdpError)) throw error;
    const capture = ctx.browser.tabs.captureVisibleTab;
    if (!tab.active || !capture) {
      fail('CDP_UNAVAILABLE', `cannot screenshot background tab ${params.tabId} without CDP: ${error.message}`, {
        reason: error.kind,
      });
    }
    try {
      const dataUrl = await capture(tab.windowId, { format: 'png' });
      base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
      warnings.push(
        `CDP unavailable (${error.message}); captured the visible tab instead${params.fullPage ? ' (viewport only)' : ''}`,
      );
    } catch (captureError) {
      fail('CDP_UNAVAILABLE', `screenshot failed: ${error.message}; captureVisibleTab: ${messageOf(captureError)}`);
    }
  }
  const bytes = base64ToBytes(base64);
  const size = pngSize(bytes);
  if (!size) fail('PLUGIN_ERROR', 'the captured screenshot is not a PNG');
  const uploaded = await ctx.artifacts.upload({ ...artifact, bytes }, target);
  const result: ActionResult<'browser_screenshot'> = {
    artifactId: uploaded.artifactId,
    url: uploaded.url,
    width: size.width,
    height: size.height,
  };
  if (warnings.length > 0) result.warnings = warnings;
  return result;
};
