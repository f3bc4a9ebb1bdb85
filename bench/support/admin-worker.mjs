// Benchmark support, run as a separate process: one app worker calling the admin mock for one
// mall through the admin client, scheduling through a Redis store shared with the other workers.
// Prints a JSON line with its statuses and the 429s it received on the wire (retried ones included).
//   node admin-worker.mjs <redis-url> <mock-url> <access-token> <requests>
import { createAdminClient } from '@mall-api/admin-client';
import { RedisStore } from '@mall-api/rate-limit/redis';

const [redisUrl, baseUrl, accessToken, count] = process.argv.slice(2);
if (!redisUrl || !baseUrl || !accessToken || !count)
  throw new Error('usage: admin-worker.mjs <redis-url> <mock-url> <access-token> <requests>');
const store = new RedisStore({ url: redisUrl });
let tooMany = 0;
const client = createAdminClient({
  mallId: 'demomall',
  baseUrl,
  auth: { accessToken },
  rateLimit: { store },
  onEvent: (event) => {
    if (event.type === 'response' && event.status === 429) tooMany += 1;
  },
});
const statuses = [];
for (let i = 0; i < Number(count); i++) {
  const { response } = await client.GET('/api/v2/admin/categories', {
    params: { query: { limit: 10, offset: i } },
  });
  statuses.push(response.status);
}
await store.close();
process.stdout.write(`${JSON.stringify({ statuses, tooMany, finishedAt: Date.now() })}\n`);
