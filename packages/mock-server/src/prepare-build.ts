// Build step (`npm run build` of this package, after tsc): prepares the documented responses of
// every API whose bundled spec exists, with Prism's engine, into dist/prepared/<api>.json tagged
// with the spec's digest, so the mocks start without running Prism.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { loadSpec } from '@mall-api/spec-model';
import { apiProfiles } from './identity/api-profiles.js';
import { distDirectory } from './process/dist-directory.js';
import { type PreparedOperation, preparedFile, prepareOperation } from './responses/prepared-responses.js';
import { createPrismEngine } from './responses/prism-engine.js';

for (const profile of Object.values(apiProfiles)) {
  const spec = await loadSpec(profile.name);
  const engine = await createPrismEngine(spec.document);
  const operations: Record<string, PreparedOperation> = {};
  for (const operation of spec.operations) {
    operations[operation.operationId] = await prepareOperation(engine, spec, operation);
  }
  const file = preparedFile(distDirectory, profile.name);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify({ specDigest: spec.digest, operations }));
  process.stdout.write(`prepared ${Object.keys(operations).length} ${profile.name} operations\n`);
}
