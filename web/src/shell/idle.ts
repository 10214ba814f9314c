/**
 * Runs `tasks` one per idle period of the browser (requestIdleCallback; a short timer where there is none), so
 * work that can wait never competes with a page being used. Returns a cancel function.
 */
export function runWhenIdle(tasks: readonly (() => void)[]): () => void {
  let cancelled = false;
  let handle: number | undefined;
  const idle =
    typeof window.requestIdleCallback === 'function'
      ? (fn: () => void) => window.requestIdleCallback(fn, { timeout: 5_000 })
      : (fn: () => void) => window.setTimeout(fn, 200);
  const cancelIdle =
    typeof window.cancelIdleCallback === 'function'
      ? (h: number) => window.cancelIdleCallback(h)
      : (h: number) => window.clearTimeout(h);
  const next = (i: number) => {
    if (cancelled || i >= tasks.length) return;
    handle = idle(() => {
      tasks[i]();
      next(i + 1);
    });
  };
  next(0);
  return () => {
    cancelled = true;
    if (handle !== undefined) cancelIdle(handle);
  };
}
