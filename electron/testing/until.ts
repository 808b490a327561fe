// Waiting in the Node tests for an event pushed into a list (status updates, analysis lines).

/**
 * The first item of `seen` (a list that grows while the test waits) that `ok` accepts, looked
 * for every 50 ms; rejects after `ms` with `what` and the last item seen.
 */
export function until<T>(seen: T[], ok: (v: T) => boolean, ms: number, what: string): Promise<T> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const tick = () => {
      const v = seen.find(ok);
      if (v) return resolve(v);
      if (Date.now() - t0 > ms) return reject(new Error(`no such ${what}; last ${JSON.stringify(seen.at(-1))}`));
      setTimeout(tick, 50);
    };
    tick();
  });
}
