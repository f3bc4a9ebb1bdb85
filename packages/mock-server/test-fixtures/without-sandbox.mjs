// Preloaded with `node --import`: makes `@mall-api/sandbox` and `better-sqlite3` unresolvable, as
// they are where the optional packages were not installed.
import { register } from 'node:module';

const hooks = `
const hidden = new Set(['@mall-api/sandbox', 'better-sqlite3']);
export async function resolve(specifier, context, next) {
  if (hidden.has(specifier)) {
    const error = new Error("Cannot find package '" + specifier + "'");
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
