// The API versions a spec describes, read from its root `x-api-versions`: the release dates (newest
// first), the request header that chooses one, and how a date the spec does not describe is
// answered. One reader for the mock, the clients' generators and the docs.
import { isJsonObject, type JsonObject } from './json-document.js';

/** The date versions of one API. */
export interface ApiVersions {
  /** The request header that names a version; absent when the API publishes no versions. */
  readonly header?: string;
  /** Release dates (`YYYY-MM-DD`), newest first; empty when the API publishes no versions. */
  readonly dates: readonly string[];
  /** How a release date the spec does not describe is answered: as the oldest or the latest described. */
  readonly unknownAnsweredAs: 'oldest' | 'latest';
}

const releaseDate = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `text` is a `YYYY-MM-DD` day of the calendar (not `2020-02-31`), as the header's `format: date` reads it. */
const isCalendarDate = (text: string) =>
  releaseDate.test(text) && !Number.isNaN(Date.parse(text)) && new Date(text).toISOString().startsWith(text);

/**
 * Reads `x-api-versions` from a document that may not declare it (an older released bundle, a
 * document without versions).
 * @returns `undefined` when the document declares no `x-api-versions`.
 * @throws {Error} when the extension is malformed.
 */
export function declaredApiVersionsOf(document: JsonObject): ApiVersions | undefined {
  return document['x-api-versions'] === undefined ? undefined : apiVersionsOf(document);
}

/**
 * Reads `x-api-versions` from a bundled document.
 * @throws {Error} when the extension is missing or malformed.
 */
export function apiVersionsOf(document: JsonObject): ApiVersions {
  const versions = document['x-api-versions'];
  if (!isJsonObject(versions) || !Array.isArray(versions.versions))
    throw new Error('the spec has no x-api-versions with a versions list');
  const dates = versions.versions.map((entry) => {
    const date = isJsonObject(entry) ? entry.date : undefined;
    if (typeof date !== 'string' || !releaseDate.test(date))
      throw new Error(`x-api-versions lists ${JSON.stringify(entry)}, not a release date`);
    return date;
  });
  const unknown = isJsonObject(versions['unknown-version']) ? versions['unknown-version'] : {};
  return {
    ...(typeof versions.header === 'string' ? { header: versions.header } : {}),
    dates,
    unknownAnsweredAs: unknown['answered-as'] === 'latest' ? 'latest' : 'oldest',
  };
}

/**
 * The described version that answers a request naming `requested` (a header value, or undefined
 * without the header): the latest without one, the date itself when described, the fallback for
 * another release date; `undefined` for a value that is not a calendar date (the header's schema,
 * a date, refuses it).
 */
export function answeringVersion(versions: ApiVersions, requested: string | undefined): string | undefined {
  const latest = versions.dates[0];
  if (requested === undefined) return latest;
  if (versions.dates.includes(requested)) return requested;
  if (!isCalendarDate(requested)) return undefined;
  return versions.unknownAnsweredAs === 'latest' ? latest : versions.dates.at(-1);
}
