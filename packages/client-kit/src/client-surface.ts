// What each client package re-exports from the kit for its users, in one list so the three
// clients cannot drift apart: the error class, its guard and kinds, the per-call and client-wide
// failure options, and the events. Each client adds what only it needs (bearer auth, offset caps).
export type { ClientEvent, ClientRuntimeOptions } from './api-client.js';
export { isMallApiError, MallApiError, type MallErrorKind } from './errors.js';
export { ApiRequestError } from './list-pager.js';
export type { CallOptions } from './mall-client.js';
