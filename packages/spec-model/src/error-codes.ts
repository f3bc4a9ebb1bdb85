// The codes of the platform's error envelope (`ErrorEnvelope`'s `error.code`): the enum's members,
// each paired with the HTTP status it is sent with by its `x-enumDescriptions` entry ("404: …").
// The mock builds every envelope's code from this table, and the tests check the balancer's own
// envelopes against it, so no list of codes is written anywhere but the spec.
import { isJsonObject, type JsonObject, resolveOptional } from './json-document.js';

/** The error code of each HTTP status, as the document's error envelope pairs them. */
export function errorCodesOf(document: JsonObject): Map<number, string> {
  const at = (value: JsonObject | undefined, key: string) => resolveOptional(document, value?.[key]);
  const envelope = at(at(at(document, 'components'), 'schemas'), 'ErrorEnvelope');
  const error = at(at(envelope, 'properties'), 'error');
  const code = at(at(error, 'properties'), 'code');
  const described = code?.['x-enumDescriptions'];
  if (!code || !Array.isArray(code.enum) || !isJsonObject(described))
    throw new Error('the document has no ErrorEnvelope whose code is a described enum');
  const byStatus = new Map<number, string>();
  for (const member of code.enum) {
    const status = /^(\d{3}):/.exec(String(described[String(member)] ?? ''))?.[1];
    if (typeof member !== 'string' || status === undefined)
      throw new Error(`error code ${JSON.stringify(member)} is not described with its status ("404: …")`);
    if (byStatus.has(Number(status)))
      throw new Error(`status ${status} is paired with both ${byStatus.get(Number(status))} and ${member}`);
    byStatus.set(Number(status), member);
  }
  return byStatus;
}
