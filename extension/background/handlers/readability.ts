// browser_readability_extract (seed 000 §4.2 B): readability text and Markdown, inline below
// 256 KB (UTF-8); at or above it an artifact with truncated=true and no inline text; above
// 2 MB READABILITY_TOO_LARGE.
import type { ActionResult } from '../../../transport/contracts/index.ts';
import { READABILITY_INLINE_MAX_BYTES, READABILITY_MAX_BYTES } from '../../../transport/contracts/index.ts';
import type { ActionHandler } from '../action-context.ts';
import { fail } from '../action-failure.ts';
import { requireTaskTab } from '../tab-guard.ts';
import { runPageOp } from './page-op.ts';

export const readabilityExtract: ActionHandler<'browser_readability_extract'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const page = await runPageOp(ctx, params.tabId, 'readability', {});
  const warnings = page.fallback ? ['readability found no article; returned the text of the whole page'] : [];
  const body = page.markdown || page.text;
  const encoded = new TextEncoder().encode(body);
  const bytes = encoded.byteLength;
  if (bytes > READABILITY_MAX_BYTES) {
    fail(
      'READABILITY_TOO_LARGE',
      `the readable text is ${bytes} bytes, above the ${READABILITY_MAX_BYTES}-byte limit`,
      { contentLengthBytes: bytes },
    );
  }
  const result: ActionResult<'browser_readability_extract'> = { title: page.title, contentLengthBytes: bytes };
  if (bytes >= READABILITY_INLINE_MAX_BYTES) {
    const artifact = await ctx.artifacts.upload({
      taskId: ctx.taskId,
      kind: 'readability',
      contentType: 'text/markdown; charset=utf-8',
      bytes: encoded,
    });
    result.artifactId = artifact.artifactId;
    result.truncated = true;
  } else {
    result.text = page.text;
    result.markdown = page.markdown;
    result.truncated = false;
  }
  if (warnings.length > 0) result.warnings = warnings;
  return result;
};
