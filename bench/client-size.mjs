#!/usr/bin/env node
// Benchmark: the runtime size of each client package (bundled with everything it imports,
// minified, gzipped, no types) against its 10 kB limit. Run after `npm run build`.
import { clientSizeLimits, measureClient } from '../tools/src/client-size.mjs';

for (const [name, limit] of Object.entries(clientSizeLimits)) {
  const size = await measureClient(name);
  process.stdout.write(
    `${name.padEnd(20)} ${String(size.minified).padStart(7)} B min  ${String(size.gzipped).padStart(6)} B min+gz  (limit ${limit} B)\n`,
  );
}
