// Stage (APIs whose spec describes date versions, `x-api-versions`): decides which described version
// answers the request — the latest without the version header, the named one when described, and
// for another release date the fallback the spec states (the oldest described, as the platform
// answers an expired version). The header is then validated as that version; a value that is not a
// release date is left for the header's schema to refuse with 422.
import { answeringVersion } from '@mall-api/spec-model';
import type { HeaderVersions } from '../../compiled-api.js';
import { type Arrival, type Checked, headerValue } from '../phases.js';
import type { Step } from '../stage.js';

/** Creates the stage for an API's described versions. */
export function apiVersion(versions: HeaderVersions): Step<Arrival, Pick<Checked, 'apiVersion'>> {
  const name = versions.header.toLowerCase();
  return {
    name: 'api-version',
    run(phase) {
      const requested = headerValue(phase.request.headers[name]);
      const answering = answeringVersion(versions, requested);
      if (answering === undefined) return undefined;
      if (requested !== undefined) phase.request.headers[name] = answering;
      return { apiVersion: answering };
    },
  };
}
