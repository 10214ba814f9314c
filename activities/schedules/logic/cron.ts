import type { CalendarSpec, DayOfWeek, Month, Range } from '@temporalio/client';
import { CronPattern } from 'croner';

/**
 * Cron expressions → Temporal Schedule calendar specs. croner parses and validates the expression (names, lists,
 * ranges, steps, `?`, `L`, `#`); this module turns its parsed field sets into calendar specs, which Temporal
 * matches when every field matches. Quartz differs from standard cron in ways a plain pass-through would get
 * wrong: a leading seconds field, an optional trailing year, weekdays numbered 1 = Sunday … 7 = Saturday, and
 * `?` in exactly one of day-of-month / day-of-week. Temporal's own cron string reads six fields as "… year"
 * (not seconds first) and has no `L` or `#`, so every expression is translated into calendars instead.
 */

export type CronDialect = 'quartz' | 'standard';

/** A cron expression the translation refuses; `message` says what and why (the API answers 400 with it). */
export class CronTranslationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CronTranslationError';
  }
}

const MONTHS: Month[] = [
  'JANUARY',
  'FEBRUARY',
  'MARCH',
  'APRIL',
  'MAY',
  'JUNE',
  'JULY',
  'AUGUST',
  'SEPTEMBER',
  'OCTOBER',
  'NOVEMBER',
  'DECEMBER',
];
const DAYS: DayOfWeek[] = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];
/** croner's day-of-week flags: bit n-1 = the nth weekday of the month (`#n`), bit 5 = the last one (`L`). */
const LAST_OCCURRENCE = 0b100000;
const EVERY_OCCURRENCE = 0b011111;
/** Temporal calendars hold years 2000-2100; leap-year rules for `L` in February are written out for them. */
export const LAST_YEAR_COVERED = 2100;
const FIRST_YEAR = 2000;

const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** The indexes whose flag is set. */
const setOf = (flags: number[], offset = 0) => flags.flatMap((v, i) => (v ? [i + offset] : []));

/** Sorted distinct numbers → the fewest ranges: runs of consecutive values, or one stepped range when it fits. */
export function toRanges(values: number[]): Range<number>[] {
  const v = [...new Set(values)].sort((a, b) => a - b);
  if (v.length === 0) return [];
  if (v.length > 2) {
    const step = v[1] - v[0];
    if (step > 1 && v.every((x, i) => i === 0 || x - v[i - 1] === step))
      return [{ start: v[0], end: v[v.length - 1], step }];
  }
  const out: Range<number>[] = [];
  let start = v[0];
  let prev = v[0];
  for (const x of v.slice(1).concat(Number.NaN)) {
    if (x === prev + 1) {
      prev = x;
      continue;
    }
    out.push({ start, end: prev, step: 1 });
    start = prev = x;
  }
  return out;
}

const named = <T extends string>(names: T[], ranges: Range<number>[]): Range<T>[] =>
  ranges.map((r) => {
    if (r.step && r.step > 1) throw new Error('named fields are listed without steps');
    return { start: names[r.start], end: names[r.end ?? r.start], step: 1 };
  });

/** A field of a calendar: `'*'` when it allows every value of its domain. */
function field(values: number[], domainSize: number): Range<number>[] | '*' {
  return values.length === domainSize ? '*' : toRanges(values);
}

function monthField(months: number[]): Range<Month>[] | '*' {
  if (months.length === 12) return '*';
  return months.map((m) => ({ start: MONTHS[m - 1], end: MONTHS[m - 1], step: 1 }));
}

function dowField(days: number[]): Range<DayOfWeek>[] | '*' {
  if (days.length === 7) return '*';
  return named(DAYS, toRanges(days));
}

/** Years (from the pattern, or every year when it names none) split into leap and common years, as ranges. */
function yearsByLeap(years: number[] | '*'): { leap: Range<number>[]; common: Range<number>[] } {
  if (years === '*') {
    // Every year: the leap years four apart except the century years that are not leap years, the rest as three
    // stepped ranges plus those century years. Written out for FIRST_YEAR..LAST_YEAR_COVERED.
    const leap: Range<number>[] = [];
    for (let c = FIRST_YEAR; c < LAST_YEAR_COVERED; c += 100) {
      const start = isLeap(c) ? c : c + 4;
      leap.push({ start, end: Math.min(c + 96, LAST_YEAR_COVERED), step: 4 });
    }
    const common: Range<number>[] = [1, 2, 3].map((k) => ({
      start: FIRST_YEAR + k,
      end: LAST_YEAR_COVERED - 4 + k,
      step: 4,
    }));
    for (let c = FIRST_YEAR; c <= LAST_YEAR_COVERED; c += 100)
      if (!isLeap(c)) common.push({ start: c, end: c, step: 1 });
    return { leap, common };
  }
  return { leap: toRanges(years.filter(isLeap)), common: toRanges(years.filter((y) => !isLeap(y))) };
}

interface Fields {
  second: number[];
  minute: number[];
  hour: number[];
  /** 1-31 */
  dayOfMonth: number[];
  /** 1-12 */
  month: number[];
  /** 0 = Sunday … 6 = Saturday, each with croner's occurrence flags */
  dayOfWeek: Map<number, number>;
  years: number[] | '*';
  lastDayOfMonth: boolean;
  domRestricted: boolean;
  dowRestricted: boolean;
}

function parse(expression: string, dialect: CronDialect): Fields {
  const parts = expression.trim().split(/\s+/);
  const want = dialect === 'quartz' ? '6 or 7' : '5';
  if (
    (dialect === 'quartz' && (parts.length < 6 || parts.length > 7)) ||
    (dialect === 'standard' && parts.length !== 5)
  )
    throw new CronTranslationError(
      `${dialect === 'quartz' ? 'a Quartz' : 'a standard'} cron expression has ${want} fields, "${expression}" has ${parts.length}`,
    );
  if (dialect === 'quartz') {
    const [, , , dom, , dow] = parts;
    if ((dom === '?') === (dow === '?'))
      throw new CronTranslationError(
        `Quartz cron "${expression}": exactly one of day-of-month ("${dom}") and day-of-week ("${dow}") must be "?"`,
      );
  } else if (parts.some((p) => /[?LW#]/.test(p))) {
    throw new CronTranslationError(`standard cron "${expression}" has Quartz-only characters (? L W #)`);
  }
  if (parts.some((p) => /\bLW\b|L-\d|\d+W\b/.test(p)))
    throw new CronTranslationError(
      `cron "${expression}": W (nearest weekday) and L-n (offset from the month's last day) have no Temporal schedule form`,
    );
  let p: CronPattern;
  try {
    p = new CronPattern(expression.trim(), undefined, {
      mode: dialect === 'quartz' ? '6-or-7-parts' : '5-part',
      alternativeWeekdays: dialect === 'quartz',
      sloppyRanges: true, // Quartz's "0/15" (from 0 every 15)
    });
  } catch (err) {
    throw new CronTranslationError(`cron "${expression}": ${(err as Error).message.replace(/^CronPattern: /, '')}`);
  }
  if (p.nearestWeekdays.some(Boolean) || p.lastWeekday)
    throw new CronTranslationError(`cron "${expression}": W (nearest weekday) has no Temporal schedule form`);
  const dayOfWeek = new Map<number, number>();
  p.dayOfWeek.forEach((flags, d) => {
    if (flags) dayOfWeek.set(d % 7, (dayOfWeek.get(d % 7) ?? 0) | flags);
  });
  return {
    second: setOf(p.second),
    minute: setOf(p.minute),
    hour: setOf(p.hour),
    dayOfMonth: setOf(p.day, 1),
    month: setOf(p.month, 1),
    dayOfWeek,
    years: p.starYear ? '*' : setOf(p.year),
    lastDayOfMonth: p.lastDayOfMonth,
    domRestricted: !p.starDOM,
    dowRestricted: !p.starDOW,
  };
}

/** A day rule: which days of which months (and years) a calendar spec allows. */
interface DayRule {
  dayOfMonth: number[] | '*';
  dayOfWeek: number[] | '*';
  months?: number[];
  years?: Range<number>[];
  comment: string;
}

/** The months among `months` with `n` days (n = 28 means February). */
const monthsWithDays = (months: number[], n: number) =>
  months.filter((m) => (n === 28 ? m === 2 : m !== 2 && MONTH_DAYS[m - 1] === n));

/** Rules for a day that counts from the month's end (`L`, `6L`): one per month length, February by leap year. */
function fromMonthEnd(
  months: number[],
  years: Fields['years'],
  days: (lastDay: number) => number[],
  dayOfWeek: number[] | '*',
  what: string,
): DayRule[] {
  const rules: DayRule[] = [];
  for (const len of [31, 30]) {
    const ms = monthsWithDays(months, len);
    if (ms.length) rules.push({ dayOfMonth: days(len), dayOfWeek, months: ms, comment: `${what}, ${len}-day months` });
  }
  if (months.includes(2)) {
    const { leap, common } = yearsByLeap(years);
    if (common.length)
      rules.push({ dayOfMonth: days(28), dayOfWeek, months: [2], years: common, comment: `${what}, February` });
    if (leap.length)
      rules.push({
        dayOfMonth: days(29),
        dayOfWeek,
        months: [2],
        years: leap,
        comment: `${what}, February, leap years`,
      });
  }
  return rules;
}

const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function dayRules(f: Fields, dialect: CronDialect): DayRule[] {
  const rules: DayRule[] = [];
  const plainDays: number[] = [];
  for (const [d, flags] of f.dayOfWeek) {
    if ((flags & EVERY_OCCURRENCE) === EVERY_OCCURRENCE) {
      plainDays.push(d);
      continue;
    }
    // The nth weekday of a month falls on day 7n-6 … 7n; the last one within the month's last seven days.
    for (let n = 1; n <= 5; n++)
      if (flags & (1 << (n - 1)))
        rules.push({ dayOfMonth: span(7 * n - 6, Math.min(7 * n, 31)), dayOfWeek: [d], comment: `${DAYS[d]} #${n}` });
    if (flags & LAST_OCCURRENCE)
      rules.push(...fromMonthEnd(f.month, f.years, (last) => span(last - 6, last), [d], `last ${DAYS[d]}`));
  }
  if (f.lastDayOfMonth) rules.push(...fromMonthEnd(f.month, f.years, (last) => [last], '*', 'last day of the month'));
  const dom = f.dayOfMonth;
  if (f.domRestricted && f.dowRestricted) {
    // Standard cron: a day matches when either field does (two calendars). Quartz never gets here ("?").
    if (dialect === 'quartz') throw new CronTranslationError('Quartz cron restricts only one of the two day fields');
    if (dom.length) rules.push({ dayOfMonth: dom, dayOfWeek: '*', comment: 'day of month' });
    if (plainDays.length) rules.push({ dayOfMonth: '*', dayOfWeek: plainDays, comment: 'day of week' });
  } else if (f.dowRestricted) {
    if (plainDays.length) rules.push({ dayOfMonth: '*', dayOfWeek: plainDays, comment: 'day of week' });
  } else if (dom.length || !f.lastDayOfMonth) {
    rules.push({ dayOfMonth: dom.length === 31 ? '*' : dom, dayOfWeek: '*', comment: 'every matching day' });
  }
  return rules;
}

/**
 * The calendar specs a Temporal Schedule fires on for `expression` (Quartz: `sec min hour dom mon dow [year]`;
 * standard: `min hour dom mon dow`). Throws CronTranslationError naming what is wrong or not expressible.
 */
export function cronToCalendars(expression: string, dialect: CronDialect): CalendarSpec[] {
  const f = parse(expression, dialect);
  const time = {
    second: field(f.second, 60),
    minute: field(f.minute, 60),
    hour: field(f.hour, 24),
  };
  const calendars: CalendarSpec[] = [];
  for (const rule of dayRules(f, dialect)) {
    const months = rule.months ?? f.month;
    if (months.length === 0) continue;
    const dom = rule.dayOfMonth === '*' ? '*' : field(rule.dayOfMonth, 31);
    if (Array.isArray(dom) && dom.length === 0) continue;
    calendars.push({
      ...time,
      dayOfMonth: dom,
      month: monthField(months),
      dayOfWeek: rule.dayOfWeek === '*' ? '*' : dowField(rule.dayOfWeek),
      year: rule.years ?? (f.years === '*' ? '*' : toRanges(f.years)),
      comment: `${expression} (${rule.comment})`,
    });
  }
  if (calendars.length === 0) throw new CronTranslationError(`cron "${expression}" never fires`);
  return calendars;
}

/** `15m`, `1h`, `6h`, `1d` (any whole number of minutes, hours or days) → milliseconds; null when malformed. */
export function intervalMs(interval: string): number | null {
  const m = /^(\d+)([mhd])$/.exec(interval.trim());
  if (!m || Number(m[1]) <= 0) return null;
  return Number(m[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'm' | 'h' | 'd'];
}
