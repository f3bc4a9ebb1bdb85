// Dates as the platform writes them: ISO 8601 in Korean time, `YYYY-MM-DDTHH:MM:SS+09:00`, and
// parsing of the date bounds list filters accept (a date alone, or a date-time with an offset).

const kstOffsetMs = 9 * 60 * 60 * 1000;

/** `2026-03-02T11:05:48+09:00` for an instant. */
export function kstDateTime(instant: Date | number): string {
  const shifted = new Date((typeof instant === 'number' ? instant : instant.getTime()) + kstOffsetMs);
  return `${shifted.toISOString().slice(0, 19)}+09:00`;
}

/**
 * The instant of a filter bound. A date alone is the start of that day in Korean time, or its end
 * when `endOfDay` is set; a date-time without an offset is Korean time.
 */
export function parseBound(value: string, endOfDay: boolean): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return Date.parse(`${value}T${endOfDay ? '23:59:59' : '00:00:00'}+09:00`);
  }
  return Date.parse(/[zZ]|[+-]\d{2}:\d{2}$/.test(value) ? value : `${value}+09:00`);
}
