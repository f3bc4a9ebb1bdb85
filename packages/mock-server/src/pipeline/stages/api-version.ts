// Stage (APIs whose spec describes date versions, `x-api-versions`): decides which described version
// answers the request — the latest without the version header, the named one when described, and
// for another release date the fallback the spec states (the oldest described, as the platform
// answers an expired version). The header is then validated as that version; a value that is not a
// release date is left for the header's schema to refuse with 422.
import { type ApiVersions, answeringVersion } from '@mall-api/spec-model';
import { headerValue } from '../exchange.js';
import type { Stage } from '../stage.js';

/** Creates the stage for an API's described versions (it needs `versions.header`). */
export function apiVersion(versions: ApiVersions & { header: string }): Stage {
  const name = versions.header.toLowerCase();
  return {
    name: 'api-version',
    run(exchange) {
      const requested = headerValue(exchange.request.headers[name]);
      const answering = answeringVersion(versions, requested);
      if (answering === undefined) return undefined;
      exchange.apiVersion = answering;
      if (requested !== undefined) exchange.request.headers[name] = answering;
      return undefined;
    },
  };
}
