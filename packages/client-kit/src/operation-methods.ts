// One method per operation on a mall client: `admin.products.list({ category: 24, limit: 10 })`.
// Each client's generated table (tools/src/codegen/operation-methods.mjs) names every operation's
// place in the tree, its HTTP method and path, and, for a write, the key that wraps its fields
// (`{ shop_no, request }`); `attachOperationMethods` turns that table into methods over the
// client's openapi-fetch calls. A method takes path, query and body fields in one flat object,
// always throws `MallApiError` on failure and resolves to the response body; a pageable list's
// method carries `all`, the client's `paginate` over that list. The types below give each method
// its operation's flat input and success body. Not where requests are sent (see `mall-client.ts`).
import type { RequiredKeysOf, ResponseObjectMap, SuccessResponse } from 'openapi-typescript-helpers';
import type { CallOptions, MallClient } from './mall-client.js';

/** Per-call options of an operation method (it always throws on failure). */
export interface MethodCallOptions extends Omit<CallOptions, 'throwOnError'> {
  /** Aborts the call. */
  signal?: AbortSignal;
  /** Headers of this call only (e.g. `X-Platform-Api-Version`). */
  headers?: Record<string, string>;
}

/** Where one operation is: its method, path template, and how a write's body wraps its fields. */
export interface OperationEntry {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  readonly path: string;
  /** A body `{ shop_no?, request }`: the key under which the fields go, and the keys kept beside it. */
  readonly wrap?: { readonly key: string; readonly beside: readonly string[] };
  /** A list that pages with `offset`: its method gets `all`. */
  readonly pages?: true;
}

/** The generated tree of a client's operations: namespaces down to {@link OperationEntry} leaves. */
export interface OperationTree {
  readonly [name: string]: OperationEntry | OperationTree;
}

// biome-ignore lint/suspicious/noExplicitAny: openapi-typescript-helpers' own operation constraint
type AnyOperation = Record<string | number, any>;
/** No fields. */
type Empty = Record<never, never>;
/** `T`, or no fields when the operation has none (openapi-typescript writes `never` there). */
type Present<T> = [NonNullable<T>] extends [never] ? Empty : NonNullable<T>;
type ParametersIn<Op, In extends string> = Op extends { parameters: { [K in In]?: infer P } }
  ? Present<P>
  : Empty;
type JsonBody<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : Empty;
/** A body's fields, with those under `Wrap` lifted beside the others. */
type FlatBody<B, Wrap extends string> = [Wrap] extends [never]
  ? Present<B>
  : Omit<B, Wrap> & (B extends { [K in Wrap]: infer R } ? R : Empty);
type Flatten<T> = { [K in keyof T]: T[K] };

/** The one object an operation method takes: path, query and body fields side by side. */
export type MethodInput<Op, Wrap extends string = never> = Flatten<
  ParametersIn<Op, 'path'> & ParametersIn<Op, 'query'> & FlatBody<JsonBody<Op>, Wrap>
>;
/** What an operation method resolves to: the success response's JSON body. */
export type MethodResult<Op extends AnyOperation> = SuccessResponse<ResponseObjectMap<Op>, `${string}/json`>;
type Arguments<I> =
  RequiredKeysOf<I> extends never
    ? [input?: I, options?: MethodCallOptions]
    : [input: I, options?: MethodCallOptions];

/** The method of operation `Op`; `Wrap` is the key a write's body puts its fields under. */
export type OperationMethod<Op extends AnyOperation, Wrap extends string = never> = (
  ...args: Arguments<MethodInput<Op, Wrap>>
) => Promise<MethodResult<Op>>;

/**
 * The method of a pageable list `Op` whose records are under `Key`, with `all`: every record of
 * the list, page by page (the client's `paginate`), from the same filters less `Paging`.
 */
export type PagedOperationMethod<
  Op extends AnyOperation,
  Key extends string,
  Paging extends string = 'offset',
> = OperationMethod<Op> & {
  all(
    ...args: Arguments<Omit<MethodInput<Op>, Paging>>
  ): AsyncGenerator<MethodResult<Op> extends { [K in Key]: readonly (infer T)[] } ? T : never>;
};

/** A client's `paginate`, seen loosely enough to call any pageable list. */
export type LoosePaginate = (path: string, query: Record<string, unknown>) => AsyncGenerator<unknown>;

const isEntry = (node: OperationEntry | OperationTree): node is OperationEntry =>
  typeof node.path === 'string';

/** A client's `request`, seen loosely enough to send any operation. */
type LooseRequest = (
  method: string,
  url: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown }>;

/** The method of one entry: splits the flat input into path, query and body, and returns the body. */
function operationMethod(
  send: LooseRequest,
  entry: OperationEntry,
  paginate: LoosePaginate,
): (input?: Record<string, unknown>, options?: MethodCallOptions) => unknown {
  const pathNames = new Set([...entry.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name));
  const hasBody = entry.method !== 'get' && entry.method !== 'delete';
  const method = async (input: Record<string, unknown> = {}, options: MethodCallOptions = {}) => {
    const path: Record<string, unknown> = {};
    const rest: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(input)) (pathNames.has(name) ? path : rest)[name] = value;
    let body: Record<string, unknown> | undefined;
    if (hasBody && entry.wrap) {
      const { key, beside } = entry.wrap;
      const fields = Object.entries(rest);
      body = Object.fromEntries(fields.filter(([name]) => beside.includes(name)));
      body[key] = Object.fromEntries(fields.filter(([name]) => !beside.includes(name)));
    } else if (hasBody) body = rest;
    const { data } = await send(entry.method, entry.path, {
      ...options,
      params: { path, ...(hasBody ? {} : { query: rest }) },
      ...(body ? { body } : {}),
      throwOnError: true,
    });
    return data;
  };
  if (!entry.pages) return method;
  return Object.assign(method, {
    all: (input: Record<string, unknown> = {}) => paginate(entry.path, input),
  });
}

/** The methods of a tree, namespace by namespace. */
function methodsOf(
  send: LooseRequest,
  tree: OperationTree,
  paginate: LoosePaginate,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(tree).map(([name, node]) => [
      name,
      isEntry(node) ? operationMethod(send, node, paginate) : methodsOf(send, node, paginate),
    ]),
  );
}

/**
 * Adds the methods of `tree` to `client`, each namespace as a property, and returns the client.
 *
 * @throws {Error} when a namespace would hide one of the client's own members.
 */
export function attachOperationMethods<C extends Pick<MallClient<Empty, boolean>, 'request'>, Methods>(
  client: C,
  tree: OperationTree,
  paginate: LoosePaginate,
): C & Methods {
  for (const name of Object.keys(tree))
    if (name in client) throw new Error(`operation namespace ${name} would hide the client's own ${name}`);
  const send = client.request as unknown as LooseRequest;
  return Object.assign(client, methodsOf(send, tree, paginate)) as C & Methods;
}
