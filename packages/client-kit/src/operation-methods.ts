// One method per operation on a mall client: `admin.products.list({ category: 24, limit: 10 })`.
// Each client's generated table (tools/src/codegen/operation-methods.mjs) names every operation's
// place in the tree, its HTTP method and path, and the key under which the API's writes wrap their
// fields (`{ shop_no, request }`); `attachOperationMethods` turns that table into methods over the
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

/** The generated tree of a client's operations: namespaces down to leaves `'<method> <path template>'`. */
export interface OperationTree {
  readonly [name: string]: string | OperationTree;
}

/** A client's operations, and how its writes wrap their fields (a body `{ shop_no?, request }`). */
export interface OperationTable {
  readonly tree: OperationTree;
  /** The key under which a write's fields go, and the keys kept beside it; none when bodies are flat. */
  readonly wrap?: { readonly key: string; readonly beside: readonly string[] };
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

/** A client's `request`, seen loosely enough to send any operation. */
type LooseRequest = (
  method: string,
  url: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown }>;

/**
 * Adds the methods of `table` to `client`, each namespace as a property, and returns the client. A
 * GET of a path `pageable` accepts gets `all`, which is `paginate` on that path.
 *
 * @throws {Error} when a namespace would hide one of the client's own members.
 */
export function attachOperationMethods<C extends Pick<MallClient<Empty, boolean>, 'request'>, Methods>(
  client: C,
  table: OperationTable,
  paginate: LoosePaginate,
  pageable: (path: string) => boolean,
): C & Methods {
  const send = client.request as unknown as LooseRequest;
  const { wrap } = table;
  const method = (leaf: string) => {
    const [verb = '', path = ''] = leaf.split(' ');
    const inPath: readonly string[] = path.match(/\w+(?=\})/g) ?? [];
    const write = verb !== 'get' && verb !== 'delete';
    const call = async (input: Record<string, unknown> = {}, options: MethodCallOptions = {}) => {
      const fields = Object.entries(input);
      const pick = (keep: (name: string) => boolean) =>
        Object.fromEntries(fields.filter(([name]) => keep(name)));
      const rest = pick((name) => !inPath.includes(name));
      const body = wrap
        ? {
            ...pick((name) => wrap.beside.includes(name)),
            [wrap.key]: pick((name) => !inPath.includes(name) && !wrap.beside.includes(name)),
          }
        : rest;
      const init = {
        ...options,
        params: { path: pick((name) => inPath.includes(name)), ...(write ? {} : { query: rest }) },
        ...(write ? { body } : {}),
        throwOnError: true,
      };
      return (await send(verb, path, init)).data;
    };
    return verb === 'get' && pageable(path)
      ? Object.assign(call, { all: (input: Record<string, unknown> = {}) => paginate(path, input) })
      : call;
  };
  const methods = (tree: OperationTree): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(tree).map(([name, node]) => [
        name,
        typeof node === 'string' ? method(node) : methods(node),
      ]),
    );
  for (const name of Object.keys(table.tree))
    if (name in client) throw new Error(`operation namespace ${name} would hide the client's own ${name}`);
  return Object.assign(client, methods(table.tree)) as C & Methods;
}
