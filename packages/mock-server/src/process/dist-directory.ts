// This package's compiled output folder, where the build keeps the prepared responses.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's compiled output folder (`dist/`), above this module's own. */
export const distDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');
