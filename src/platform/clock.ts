// Time is passed in, so schedules and expiries can be tested exactly instead of waited for.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock a test moves by hand. */
export function createManualClock(start: Date = new Date('2026-01-01T00:00:00.000Z')) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set(at: Date) {
      current = at.getTime();
    },
    advance(ms: number) {
      current += ms;
    },
  };
}
