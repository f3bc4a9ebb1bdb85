// This package's compiled output folder, where the build keeps the prepared responses.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder this module was compiled into (`dist/`). */
export const distDirectory = dirname(fileURLToPath(import.meta.url));
