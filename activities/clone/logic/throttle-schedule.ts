import type { ThrottlePreset } from './presets';

/**
 * Throttle windows: `{time, preset}` where time is `HH:MM-HH:MM` (end exclusive; a range whose end is not after
 * its start wraps past midnight) or day names (`sat,sun`, `mon-fri`). The first window that matches wins.
 * Pure (no I/O, no clock) so that workflows can use it with their deterministic time.
 */
export interface ThrottleWindow {
  time: string;
  preset: ThrottlePreset;
}

/** Local wall-clock parts of an instant: day 0 = Sunday … 6 = Saturday, minutes since midnight. */
export interface ClockParts {
  day: number;
  minutes: number;
}

export const clockParts = (d: Date): ClockParts => ({ day: d.getDay(), minutes: d.getHours() * 60 + d.getMinutes() });

const DAY_NAMES: Record<string, number> = {
  sun: 0,
  sunday: 0,
  mon: 1,
  monday: 1,
  tue: 2,
  tues: 2,
  tuesday: 2,
  wed: 3,
  wednesday: 3,
  thu: 4,
  thur: 4,
  thurs: 4,
  thursday: 4,
  fri: 5,
  friday: 5,
  sat: 6,
  saturday: 6,
};

function dayIndex(name: string): number {
  const index = DAY_NAMES[name.trim().toLowerCase()];
  if (index === undefined) throw new Error(`throttle.schedule: unknown day "${name}"`);
  return index;
}

const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  if (!(h >= 0 && h <= 23 && m >= 0 && m <= 59)) throw new Error(`throttle.schedule: bad time "${hhmm}"`);
  return h * 60 + m;
};

export function windowMatches(time: string, at: ClockParts): boolean {
  const range = /^(\d{2}:\d{2})-(\d{2}:\d{2})$/.exec(time.trim());
  if (range) {
    const start = minutesOf(range[1]);
    const end = minutesOf(range[2]);
    return end > start ? at.minutes >= start && at.minutes < end : at.minutes >= start || at.minutes < end;
  }
  return time.split(',').some((part) => {
    const [from, to] = part.split('-');
    const a = dayIndex(from);
    if (to === undefined) return at.day === a;
    const b = dayIndex(to);
    return a <= b ? at.day >= a && at.day <= b : at.day >= a || at.day <= b;
  });
}

/** The preset of the first window in force at `at`, or null when none matches. */
export function presetInForce(schedule: ThrottleWindow[] | undefined, at: ClockParts): ThrottlePreset | null {
  for (const w of schedule ?? []) if (windowMatches(w.time, at)) return w.preset;
  return null;
}
