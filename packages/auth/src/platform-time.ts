// The mall platform's datetime format. The token endpoint sends datetimes such as
// "2021-03-01T14:00:00.000" with NO zone suffix; they are wall-clock times of the platform's zone,
// Korea Standard Time (+09:00, no daylight saving). This module parses them into `Date`s and formats
// `Date`s back (for fakes and mock servers). Not for the Admin API's resource datetimes, which
// carry an explicit offset.

/** The platform's fixed UTC offset, +09:00 (KST), in milliseconds. */
export const PLATFORM_UTC_OFFSET_MS = 9 * 60 * 60 * 1000;

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * Parses a platform datetime. Without a zone suffix (the platform's form) the time is read as
 * +09:00; an explicit `Z` or `±hh:mm` suffix is honoured. Impossible dates (Feb 30, 25:00) are
 * rejected rather than rolled over.
 *
 * @returns the instant, or `undefined` when `value` is not such a datetime.
 */
export function parsePlatformDateTime(value: string): Date | undefined {
  const match = DATETIME.exec(value);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  const wallClock = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
    Number((fraction ?? '0').padEnd(3, '0')),
  );
  const check = new Date(wallClock);
  if (
    check.getUTCFullYear() !== Number(year) ||
    check.getUTCMonth() !== Number(month) - 1 ||
    check.getUTCDate() !== Number(day) ||
    check.getUTCHours() !== Number(hour) ||
    check.getUTCMinutes() !== Number(minute) ||
    check.getUTCSeconds() !== Number(second)
  ) {
    return undefined;
  }
  return new Date(wallClock - offsetMs(zone));
}

function offsetMs(zone: string | undefined): number {
  if (zone === undefined) return PLATFORM_UTC_OFFSET_MS;
  if (zone === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  return sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60 * 1000;
}

/** Formats an instant the way the platform does: +09:00 wall-clock time, milliseconds, no suffix. */
export function formatPlatformDateTime(instant: Date): string {
  return new Date(instant.getTime() + PLATFORM_UTC_OFFSET_MS).toISOString().slice(0, 23);
}
