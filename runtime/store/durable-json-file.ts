// A lowdb Adapter for a JSON file that is durable across power loss: write a temp file, fsync
// it, rename it over the target, fsync the folder. Same layout and temp name as lowdb's
// DataFile/steno (`.<name>.tmp`), so both adapters can read each other's files.
// Callers serialize writes to one file (the task store does, per task).
import { open, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

export class DurableJsonFile<T> implements Adapter<T> {
  readonly #file: string;
  readonly #temp: string;

  constructor(file: string) {
    this.#file = file;
    this.#temp = join(dirname(file), `.${basename(file)}.tmp`);
  }

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return JSON.parse(text) as T;
  }

  async write(data: T): Promise<void> {
    const handle = await open(this.#temp, 'w');
    try {
      await handle.writeFile(JSON.stringify(data), 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(this.#temp, this.#file);
    const dir = await open(dirname(this.#file), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
