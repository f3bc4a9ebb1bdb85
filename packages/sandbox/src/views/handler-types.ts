// The shape of a sandbox handler, typed by the generated `operations` of
// `@mall-api/specs/types/<api>`: its path and query parameters (already converted by the front
// layer) and its JSON body. A handler map is keyed by operation id, so a misspelt one is a type error.
import type { SandboxOutcome } from '../protocol.js';

type Converted<T> = [T] extends [never] ? Readonly<Record<string, never>> : Readonly<NonNullable<T>>;

/** The path parameters of an operation. */
export type PathOf<O> = O extends { parameters: { path?: infer P } } ? Converted<P> : never;
/** The query parameters of an operation. */
export type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? Converted<Q> : never;
/** The JSON request body of an operation (undefined for operations without one). */
export type BodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : undefined;

/** What a handler of operation `O` receives. */
export interface HandlerInput<O> {
  readonly path: PathOf<O>;
  readonly query: QueryOf<O>;
  readonly body: BodyOf<O>;
}

/** Answers one operation. Inside the package a handler may throw a RefusalError. */
export type Handler<O> = (input: HandlerInput<O>) => SandboxOutcome;

/** Handlers of some operations of an API, keyed by the generated operation ids. */
export type HandlerMap<Operations> = { readonly [Op in keyof Operations]?: Handler<Operations[Op]> };

/** A handler called with a call's loosely typed parts (the mall looks it up by a string id). */
export type AnyHandler = (input: { path: unknown; query: unknown; body: unknown }) => SandboxOutcome;

/** The handlers of a map by a string operation id (the mall looks a call's operation up in it). */
export function handlerTable<Operations>(handlers: HandlerMap<Operations>): ReadonlyMap<string, AnyHandler> {
  return new Map<string, AnyHandler>(
    Object.entries(handlers).flatMap(([id, handler]) =>
      typeof handler === 'function' ? [[id, handler as AnyHandler]] : [],
    ),
  );
}

/** The handlers with each one replaced by what `wrap` makes of it (given its operation id). */
export function wrapEach<Operations>(
  handlers: HandlerMap<Operations>,
  wrap: (handler: AnyHandler, operationId: string) => AnyHandler,
): HandlerMap<Operations> {
  return Object.fromEntries(
    [...handlerTable(handlers)].map(([operationId, handler]) => [operationId, wrap(handler, operationId)]),
  ) as HandlerMap<Operations>;
}
