/** `work`'s result, or a rejection once `ms` pass without one (the work itself is not cancelled). */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Whether `work` resolves within `ms` (false if it fails or takes longer; it is not cancelled). */
export const resolvesWithin = (work: Promise<unknown>, ms: number): Promise<boolean> =>
  withTimeout(work, ms).then(
    () => true,
    () => false,
  );
