/** What startInTurn needs of a supervised service. */
export type Startable = {
  start(): void;
  /** `fn` runs once, when the service is first ready or first exits, whichever comes first. */
  onSettled(fn: () => void): void;
};

/** A service not ready by then (a slow or failing start) no longer holds back the next one's. */
export const START_SLOT_MS = 15_000;

/**
 * Starts the services in their order, `atOnce` at a time: the next one when a started one is
 * ready, has exited, or has had `slotMs`. A start is mostly CPU (compiling, loading tables), so
 * with one per core each starts about as fast as it would alone.
 */
export function startInTurn(services: readonly Startable[], atOnce: number, slotMs = START_SLOT_MS): void {
  let next = 0;
  const launch = () => {
    const service = services[next++];
    if (!service) return;
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      clearTimeout(timer);
      launch();
    };
    const timer = setTimeout(free, slotMs);
    timer.unref();
    service.onSettled(free);
    service.start();
  };
  for (let i = 0; i < atOnce; i++) launch();
}
