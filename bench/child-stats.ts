// Asks a forked measurement process for its figures over IPC: sends {type:'stats'} and resolves
// with the first {type:'stats', ...} message it answers (used by benchmarks and the soak).
import type { ChildProcess } from 'node:child_process';

export function requestStats<T>(child: ChildProcess): Promise<T> {
  return new Promise<T>((resolve) => {
    const onMessage = (message: { type: string } & T) => {
      if (message.type !== 'stats') return;
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
    child.send({ type: 'stats' });
  });
}
