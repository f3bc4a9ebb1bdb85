// Build step (`npm run build` of this package, after tsc): prepares the documented responses of
// every API whose bundled spec exists, with Prism's engine, into dist/prepared/<api>.json tagged
// with the spec's digest, so the mocks start without running Prism.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { apiProfiles } from './api-profiles.js';
import { type PreparedOperation, preparedFile, prepareOperation } from './prepared-responses.js';
import { createPrismEngine } from './prism-engine.js';
import { distDirectory, indexOperations, loadBundledSpec } from './spec-document.js';

for (const profile of Object.values(apiProfiles)) {
  const { document, digest } = await loadBundledSpec(profile.specFile);
  const engine = await createPrismEngine(document);
  const operations: Record<string, PreparedOperation> = {};
  for (const operation of indexOperations(document)) {
    operations[operation.operationId] = await prepareOperation(engine, document, operation);
  }
  const file = preparedFile(distDirectory, profile.name);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify({ specDigest: digest, operations }));
  process.stdout.write(`prepared ${Object.keys(operations).length} ${profile.name} operations\n`);
}
