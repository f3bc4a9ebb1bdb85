// The OpenAPI `links` of an operation's responses: which later operation a response's values feed
// and through which runtime expressions (`$response.body#/category/category_no`), and the value
// such an expression names in a concrete answer. The stateful sequences of the conformance runner
// are built from these. Only the expressions a link's `parameters` use on a response body are read;
// other runtime expressions give no value.
import {
  extensionsOf,
  isJsonObject,
  type Json,
  type JsonObject,
  nodeAt,
  resolveOptional,
} from './json-document.js';

/** One link of a documented response. */
export interface OperationLink {
  /** The status code of the response that holds it, as written. */
  readonly status: string;
  /** The link's name in the response's `links`. */
  readonly name: string;
  /** The operation it leads to (`operationId`; `operationRef` links are not read). */
  readonly operationId: string;
  /** Parameter name → value as written (a runtime expression or a constant). */
  readonly parameters: Readonly<Record<string, Json>>;
  readonly extensions: JsonObject;
}

/** The links of every documented response of an operation (`responses` as written). */
export function linksOf(document: JsonObject, responses: JsonObject): OperationLink[] {
  return Object.entries(responses).flatMap(([status, raw]) => {
    const response = resolveOptional(document, raw);
    const links = response && isJsonObject(response.links) ? response.links : {};
    return Object.entries(links).flatMap(([name, rawLink]) => {
      const link = resolveOptional(document, rawLink);
      if (!link || typeof link.operationId !== 'string') return [];
      return [
        {
          status,
          name,
          operationId: link.operationId,
          parameters: isJsonObject(link.parameters) ? link.parameters : {},
          extensions: extensionsOf(link),
        },
      ];
    });
  });
}

/**
 * The value a link parameter names in an answer's body: for `$response.body#<pointer>` the node
 * at the pointer (undefined when absent), for another `$`-expression undefined, else the constant.
 */
export function linkValue(expression: Json, answerBody: Json | undefined): Json | undefined {
  if (typeof expression !== 'string' || !expression.startsWith('$')) return expression;
  const pointer = /^\$response\.body(#.*)?$/.exec(expression);
  if (!pointer) return undefined;
  if (!pointer[1]) return answerBody;
  return isJsonObject(answerBody) ? nodeAt(answerBody, pointer[1]) : undefined;
}
