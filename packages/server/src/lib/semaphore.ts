/** Runs tasks at most `max` at once; the others wait their turn in the order they came. */
export interface Semaphore {
  <T>(task: () => Promise<T>): Promise<T>;
  /** Whether a task given now would start at once. */
  free(): boolean;
}

export function semaphore(max: number): Semaphore {
  let active = 0;
  const waiting: Array<() => void> = [];
  async function run<T>(task: () => Promise<T>): Promise<T> {
    // A finished task hands its place to the next waiting one, so a newcomer cannot slip in between.
    if (active < max) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  }
  return Object.assign(run, { free: () => active < max });
}
