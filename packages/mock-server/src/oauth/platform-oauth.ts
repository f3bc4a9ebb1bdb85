// The OAuth authority's settings as the shipped admin and analytics bundles state them, for
// callers that build an authority of their own outside the composition root (tests, scripts). It
// reads the bundles when called, never at import time; the mock servers derive theirs from the
// APIs they compiled (mock-server.ts).
import { loadSpec } from '@mall-api/spec-model';
import { type OAuthSettings, oauthSettingsOf, specOAuth } from './oauth-settings.js';

/** The settings of the shipped admin and analytics specs (lifetimes, scope aliases, offered scopes). */
export async function platformOAuthSettings(): Promise<OAuthSettings> {
  const specs = await Promise.all([loadSpec('admin'), loadSpec('analytics')]);
  return oauthSettingsOf(specs.map((spec) => specOAuth(spec.document)));
}
