// The open task lives in the address hash (`#/task/<taskId>`) so a reload or a shared link reopens it.
import { isUlid, isUuid } from '../../../transport/contracts/ids.ts';

export function taskIdFromHash(hash: string): string | null {
  const match = /^#\/task\/([^/?#]+)$/.exec(hash);
  if (!match) return null;
  const id = decodeURIComponent(match[1]!);
  return isUlid(id) || isUuid(id) ? id : null;
}

export function hashForTask(taskId: string | null): string {
  return taskId ? `#/task/${encodeURIComponent(taskId)}` : '';
}
