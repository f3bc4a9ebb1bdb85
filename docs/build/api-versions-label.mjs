// @ts-check
// How the site names an API's versions: the platform's own date versions (`x-api-versions`, read
// through @mall-api/spec-model), kept apart from `info.version`, the revision of our description.
import { apiVersionsOf } from '@mall-api/spec-model';

/**
 * `2020-09-01 (latest; header X-Platform-Api-Version)`, or `none published` for an unversioned API.
 * @param {import('@mall-api/spec-model').JsonObject} document a bundled spec
 * @returns {string}
 */
export function apiVersionsLabel(document) {
  const { dates, header } = apiVersionsOf(document);
  if (dates.length === 0) return 'none published';
  return `${dates.map((date, index) => (index === 0 ? `${date} (latest)` : date)).join(', ')}; header ${header}`;
}
