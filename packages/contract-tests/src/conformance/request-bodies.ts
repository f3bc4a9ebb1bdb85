// The request bodies the conformance runner sends, read from the spec: an operation's documented
// JSON request example, and the record such a body or an answer carries (`{"request": {...}}`,
// `{"category": {...}}`). Not for making invalid bodies (body-rule-cases.ts).
import {
  isJsonObject,
  type Json,
  type JsonObject,
  type OperationEntry,
  type SpecModel,
} from '@mall-api/spec-model';

/** The request example of an operation's JSON body, if it documents one. */
export function bodyExample(model: SpecModel, operation: OperationEntry): Json | undefined {
  const media = operation.jsonBody;
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const named = isJsonObject(media.examples) ? Object.values(media.examples)[0] : undefined;
  return model.resolveOptional(named)?.value;
}

/** The record a body carries: its `request` object, or the first object-valued property, or itself. */
export function recordOf(body: Json | undefined): JsonObject | undefined {
  if (!isJsonObject(body)) return undefined;
  if (isJsonObject(body.request)) return body.request;
  return Object.values(body).find(isJsonObject) ?? body;
}
