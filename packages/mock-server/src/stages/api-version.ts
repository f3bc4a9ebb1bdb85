// Stage (APIs whose spec describes date versions, `x-api-versions`): decides which described version
// answers (the latest without the header, the named one, else the spec's fallback, as the platform
// answers an expired version) and passes it on (`Versioned`), leaving the request as it came: a value
// that is not a date is left for validation to refuse with 422.
import { answeringVersion } from '@mall-api/spec-model';
import type { HeaderVersions } from '../operations/compiled-api.js';
import { type Arrival, headerValue, type Versioned } from '../pipeline/phases.js';
import type { Step } from '../pipeline/stage.js';

/** Creates the stage for an API's described versions. */
export function apiVersion(versions: HeaderVersions): Step<Arrival, Versioned> {
  const header = versions.header.toLowerCase();
  return {
    name: 'api-version',
    run(phase) {
      const apiVersion = answeringVersion(versions, headerValue(phase.request.headers[header]));
      return apiVersion === undefined ? undefined : { apiVersion };
    },
  };
}
