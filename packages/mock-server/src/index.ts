// Public entry of @mall-api/mock-server: start mock APIs programmatically, or build a handler.
export { type ApiName, type ApiProfile, apiProfiles } from './api-profiles.js';
export { type ClientCredential, demoCollectionCredentials } from './demo-credentials.js';
export { type ErrorEnvelope, errorEnvelope, type Violation } from './error-envelope.js';
export { createMockApi, type MockApi, type MockApiOptions } from './mock-api.js';
export { type RunningMock, type ServeOptions, startMockServer } from './mock-server.js';
