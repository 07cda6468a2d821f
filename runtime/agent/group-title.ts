// The name of a task's tab group: the task's own title, as the task list shows it, so
// the person finds the agent's tab among their groups ("Mimo: book a table at Chez Paul"), never
// an id suffix that appears nowhere in the UI. Chrome shows a short title best: 40 characters.
const MAX = 40;

export function groupTitleOf(title: string | undefined, taskId: string): string {
  const words = title?.replace(/\s+/g, ' ').trim();
  if (!words) return `Mimo task ${taskId.slice(-4)}`;
  const name = `Mimo: ${words}`;
  return name.length > MAX ? `${name.slice(0, MAX - 1).trimEnd()}…` : name;
}
