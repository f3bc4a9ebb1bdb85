// The balancer's own answers (deploy/nginx/balancer.conf: no replica reachable, a replica too
// slow) are the platform's error envelope with the code the spec pairs with their status
// (`@mall-api/spec-model`'s errorCodesOf over the bundle), so nginx names no code the spec lacks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorCodesOf, loadSpecSync } from '@mall-api/spec-model';
import { expect, it } from 'vitest';

const conf = readFileSync(join(import.meta.dirname, '..', '..', 'deploy/nginx/balancer.conf'), 'utf8');

it("answers its own 503 and 504 with the envelope and the spec's code for the status", () => {
  const codes = errorCodesOf(loadSpecSync('admin').document);
  const answers = [...conf.matchAll(/return (\d{3}) '(\{"error".*\})';/g)].map(([, status, body]) => ({
    status: Number(status),
    body: JSON.parse(body ?? '') as { error: { code: string; message: string; more_info: object } },
  }));
  expect(answers.map((answer) => answer.status).sort()).toEqual([503, 504]);
  for (const { status, body } of answers) {
    expect(body.error.code, String(status)).toBe(codes.get(status));
    expect(body.error.message).not.toBe('');
    expect(body.error.more_info).toEqual({});
  }
});
