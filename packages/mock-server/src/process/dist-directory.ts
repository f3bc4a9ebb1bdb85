// This package's compiled output folder, where the build keeps the prepared responses: `dist/`
// beside this module's own folder, whether it runs built (dist/process/) or as source
// (src/process/, as the tests run it, so they answer from the build's prepared responses too).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's compiled output folder (`dist/`), found from this module's folder in dist/ or src/. */
export const distDirectory = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
