/**
 * The broker's idea of the time. Deadlines, answer times and retention are read from it, so a
 * test can hold time still or move it on, rather than race real timers.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
