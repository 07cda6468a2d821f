import { createMemoryTaskFiles } from '../memory-task-files.ts';
import { createMemoryTaskStore } from '../memory-task-store.ts';
import { defineTaskStoreBehaviour } from './task-store-behaviour.ts';

defineTaskStoreBehaviour('memory task store', async (clock) => {
  const files = createMemoryTaskFiles();
  return {
    clock,
    store: createMemoryTaskStore({ clock, files }),
    reopen: () => createMemoryTaskStore({ clock, files }),
    breakWrites: async () => {
      files.failWrites = true;
    },
    healWrites: async () => {
      files.failWrites = false;
    },
    cleanup: async () => {},
  };
});
