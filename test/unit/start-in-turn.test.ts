import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startInTurn, type Startable } from '../../scripts/start/in-turn.js';

/** A service that records its start and settles when the test says so. */
function service(name: string, started: string[]): Startable & { settle(): void } {
  const handlers: Array<() => void> = [];
  return {
    start: () => started.push(name),
    onSettled: (fn) => handlers.push(fn),
    settle: () => handlers.splice(0).forEach((fn) => fn()),
  };
}

describe("npm start's order of starts", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('starts as many as it is told at once, in order, and the next one when one is ready or gone', () => {
    const started: string[] = [];
    const [gateway, greeter, architect, interviewer] = ['gateway', 'greeter', 'architect', 'interviewer'].map((n) => service(n, started));
    startInTurn([gateway!, greeter!, architect!, interviewer!], 2, 1_000);
    expect(started).toEqual(['gateway', 'greeter']);
    greeter!.settle();
    expect(started).toEqual(['gateway', 'greeter', 'architect']);
    // Settling twice frees one slot, not two.
    greeter!.settle();
    expect(started).toHaveLength(3);
    gateway!.settle();
    expect(started).toEqual(['gateway', 'greeter', 'architect', 'interviewer']);
  });

  it('does not wait longer than the slot for a service that neither becomes ready nor exits', () => {
    const started: string[] = [];
    const services = ['a', 'b', 'c'].map((n) => service(n, started));
    startInTurn(services, 1, 1_000);
    expect(started).toEqual(['a']);
    vi.advanceTimersByTime(999);
    expect(started).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(started).toEqual(['a', 'b']);
    // A service that settles after its slot ran out frees nothing more.
    services[0]!.settle();
    expect(started).toEqual(['a', 'b']);
  });
});
