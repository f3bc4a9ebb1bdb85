// The admin client's token manager against the mock's per-mall clock (its control API): once the
// mall's own time has expired the access token, the manager refreshes it at the mock, once, and the
// calls go on answering.
import { createMemoryTokenStore, createTokenManager, parseTokenResponse, refreshToken } from '@mall-api/auth';
import { type StartedMock, startMock } from '@mall-api/mock-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminClient } from './index.js';

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMock({ apis: ['admin'] });
});
afterAll(() => mock.close());

describe('against the mock’s clock', () => {
  it('makes the token manager refresh once the mall’s clock has expired its token', async () => {
    const mall = 'clockmall';
    const store = createMemoryTokenStore();
    await store.set(mall, parseTokenResponse(await mock.token(mall)));
    const refreshes: string[] = [];
    const tokens = createTokenManager({
      mallId: mall,
      store,
      refresh: (token) => {
        refreshes.push('refresh');
        return refreshToken({
          mallBaseUrl: mock.mallUrl('admin', mall),
          clientId: mock.credentials.oauthApp.clientId,
          clientSecret: mock.credentials.oauthApp.clientSecret,
          refreshToken: token,
        });
      },
    });
    const admin = createAdminClient({ mallId: mall, baseUrl: mock.mallUrl('admin', mall), auth: tokens });
    expect((await admin.GET('/api/v2/admin/categories', {})).response.status).toBe(200);
    await mock.control.advanceClock(mall, 2 * 3_600_000 + 1_000);
    const after = await admin.GET('/api/v2/admin/categories', {});
    expect(after.response.status).toBe(200);
    expect(refreshes).toEqual(['refresh']);
  });
});
