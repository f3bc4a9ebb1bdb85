// Deliberately broken copies of our mock, one behaviour each, for measuring how much drift the
// conformance runner (and Dredd) catch: a mutant serves a changed copy of the spec while the runner
// reads the real one, or puts a proxy that breaks a behaviour in front of the mock (mutant-proxy.ts).
// Behavioural mutants are the ones an example transaction cannot see; shallow ones change the
// shape of an answer. Each names the operations it touches, so a run may be limited to the checks
// that can see it. Not shipped.
import {
  type ApiName,
  type BodyRuleKind,
  bodyRulesOf,
  createSpecModel,
  isJsonObject,
  type Json,
  type JsonObject,
  loadSpec,
  type OperationEntry,
  parameterValue,
  queryMeaningsOf,
  type SpecModel,
  valuesAt,
} from '@mall-api/spec-model';
import { replaced } from '../conformance/body-rule-cases.js';
import { type LocalTarget, startLocalTarget } from '../conformance/local-target.js';
import { bodyExample } from '../conformance/request-bodies.js';
import { findSequences } from '../conformance/sequence-checks.js';
import { type ProxiedRequest, type ProxyMutation, startMutantProxy } from './mutant-proxy.js';

/** One broken copy of a mock. */
export interface Mutant {
  readonly name: string;
  readonly api: ApiName;
  readonly kind: 'behavioural' | 'shallow';
  /**
   * The group of conformance checks meant to catch it (`requests`, `paging`, `filters`, `count`,
   * `fields`, `embed`, `period`, `errors`, `auth`, `rate-limit`, `sequence`).
   */
  readonly caughtBy: string;
  /**
   * The check meant to catch it, when the group alone is not enough: its operation and how its name
   * starts (the query-meaning mutants, whose group may fail elsewhere on a sandbox still missing
   * a parameter).
   */
  readonly caughtIn?: { readonly subject: string; readonly name: string };
  /**
   * The operations whose answers it changes (their checks, and the sequences through them, can
   * see it); none for the API's rate limit (the API-wide check sees it); `every` for all.
   */
  readonly touches: readonly string[] | 'every';
  /** Changes a copy of the bundle the mock serves. */
  readonly spec?: (document: JsonObject) => void;
  /** Breaks the traffic in front of the mock. */
  readonly proxy?: (model: SpecModel) => ProxyMutation;
}

/** How a mutant breaks the mock, and where. */
type Breakage = Pick<Mutant, 'touches' | 'spec' | 'proxy'>;

/** The operation a proxied request addresses (per-mall prefix removed). */
function operationOf(model: SpecModel, request: ProxiedRequest) {
  const path = request.url.pathname.replace(/^\/__mall\/[^/]+/, '');
  return model.route(request.method, path)?.operation.operationId;
}

/** The operation object `operationId` names in a document. */
function operationIn(document: JsonObject, operationId: string): JsonObject {
  for (const item of Object.values(isJsonObject(document.paths) ? document.paths : {}))
    for (const operation of Object.values(isJsonObject(item) ? item : {}))
      if (isJsonObject(operation) && operation.operationId === operationId) return operation;
  throw new Error(`no operation ${operationId}`);
}

/** Replaces one parameter of one operation by an edited, dereferenced copy (others sharing it keep theirs). */
function editParameter(
  document: JsonObject,
  operationId: string,
  name: string,
  edit: (parameter: JsonObject) => void,
) {
  const model = createSpecModel(document);
  const operation = operationIn(document, operationId);
  const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
  operation.parameters = parameters.map((raw) => {
    const parameter = model.dereference(raw);
    if (!isJsonObject(parameter) || parameter.name !== name) return raw;
    edit(parameter);
    return parameter;
  });
}

const rateLimit = (document: JsonObject) => document['x-rate-limit'] as JsonObject;
const bodyOf = (text: string): JsonObject => JSON.parse(text) as JsonObject;

/** A proxy that breaks the traffic of `operationId` only, as `mutation` (made from the model) says. */
const onOperation = (operationId: string, mutation: (model: SpecModel) => ProxyMutation): Breakage => ({
  touches: [operationId],
  proxy: (model) => {
    const { request, answer } = mutation(model);
    const ours = (proxied: ProxiedRequest) => operationOf(model, proxied) === operationId;
    return {
      ...(request
        ? { request: (proxied, forward) => (ours(proxied) ? request(proxied, forward) : undefined) }
        : {}),
      ...(answer
        ? {
            answer: (answered, proxied) => {
              if (ours(proxied)) answer(answered, proxied);
            },
          }
        : {}),
    };
  },
});

/** Rewrites the query of GET requests. */
const queryRewrite = (rewrite: (query: URLSearchParams) => void): ProxyMutation => ({
  request(request) {
    if (request.method === 'GET') rewrite(request.url.searchParams);
    return undefined;
  },
});

/** Rewrites the query of the GET requests of `operationId`. */
const rewriteQuery = (operationId: string, rewrite: (query: URLSearchParams) => void) =>
  onOperation(operationId, () => queryRewrite(rewrite));

/** Drops the query parameter `name` of `operationId` when its value is valid (an invalid one still reaches the mock). */
const ignoreValid = (operationId: string, name: string) =>
  onOperation(operationId, (model) => {
    const parameter = model.operation(operationId)?.parameters.find((p) => p.name === name);
    const validate = model.schemas().compile(parameter?.schema ?? {});
    return queryRewrite((query) => {
      const raw = query.get(name);
      if (raw === null || !parameter) return;
      const items = model.resolveOptional(parameter.schema.items);
      if (validate(parameterValue(parameter, parameter.schema, [raw], items))) query.delete(name);
    });
  });

/** Rewrites the JSON body of the 2xx answers of `operationId`. */
const rewriteBody = (operationId: string, rewrite: (body: JsonObject) => void) =>
  onOperation(operationId, () => ({
    answer(answer) {
      if (answer.status >= 300) return;
      const body = bodyOf(answer.body);
      rewrite(body);
      answer.body = JSON.stringify(body);
    },
  }));

/** Serves a copy of the bundle in which `edit` changed the operation `operationId`. */
const editOperation = (operationId: string, edit: (document: JsonObject) => void): Breakage => ({
  touches: [operationId],
  spec: edit,
});

/** Serves `operationId` without its `x-required-scope`, so any valid token may call it. */
const dropScope = (operationId: string) =>
  editOperation(operationId, (document) => {
    delete operationIn(document, operationId)['x-required-scope'];
  });

/** Serves `operationId` with its parameter `name` changed by `edit`. */
const changeParameter = (operationId: string, name: string, edit: (parameter: JsonObject) => void) =>
  editOperation(operationId, (document) => editParameter(document, operationId, name, edit));

/** Serves a copy of the bundle with another rate limit: only the API-wide check sees it. */
const changeRateLimit = (edit: (limit: JsonObject) => void): Breakage => ({
  touches: [],
  spec: (document) => edit(rateLimit(document)),
});

/**
 * Lets bodies of `operationId` that break its `kind` rule through: the breaking value is put back
 * as the operation's example body has it before the mock sees the request, as a server ignoring
 * the rule would store it.
 */
const ignoreBodyRule = (operationId: string, kind: BodyRuleKind) =>
  onOperation(operationId, (model) => {
    const operation = model.operation(operationId);
    const schema = operation?.bodySchema;
    const rules = schema ? bodyRulesOf(model.dereference(schema)).filter((rule) => rule.kind === kind) : [];
    const example = operation && bodyExample(model, operation);
    return {
      request(request) {
        if (request.method === 'GET') return undefined;
        let body = JSON.parse(request.body) as Json;
        for (const rule of rules)
          for (const { path, value, parent } of valuesAt(body, rule.at))
            if (rule.breaches(value, parent).length > 0) {
              const kept = path.reduce<Json | undefined>(
                (node, step) =>
                  isJsonObject(node) || Array.isArray(node) ? (node as JsonObject)[step] : undefined,
                example,
              );
              body = replaced(body, path, kept ?? null);
            }
        request.body = JSON.stringify(body);
        return undefined;
      },
    };
  });

const firstList = (body: JsonObject): JsonObject[] =>
  (Object.values(body).find(Array.isArray) ?? []) as JsonObject[];

/** Answers the period `start`–`end` parameters of `operationId` as if they were their examples (a fixed period). */
const fixedPeriod = (operationId: string) =>
  onOperation(operationId, (model) => {
    const operation = model.operation(operationId);
    const periods = queryMeaningsOf(operation as OperationEntry).filter(
      (meaning) => meaning.role === 'period-start' || meaning.role === 'period-end',
    );
    const examples = new Map(
      periods.map((meaning) => [
        meaning.name,
        String(operation?.parameters.find((p) => p.name === meaning.name)?.definition.example),
      ]),
    );
    return queryRewrite((query) => {
      for (const [name, example] of examples) if (query.has(name)) query.set(name, example);
    });
  });

/** A mutant of the admin mock, behavioural unless `more` says otherwise. */
const mutant = (name: string, caughtBy: string, breakage: Breakage, more: Partial<Mutant> = {}): Mutant => ({
  name,
  api: 'admin',
  kind: 'behavioural',
  caughtBy,
  ...breakage,
  ...more,
});

/** `countProducts` of `api` answering one more than it counted. */
const countOffByOne = (api: ApiName): Mutant =>
  mutant(
    `\`count\` off by one (${api} countProducts)`,
    'count',
    rewriteBody('countProducts', (body) => {
      if (typeof body.count === 'number') body.count += 1;
    }),
    { api, caughtIn: { subject: 'countProducts', name: 'count equals' } },
  );

/** Every mutant the measurement makes. */
export const mutants: readonly Mutant[] = [
  // Only a valid value is ignored: the mock still refuses a limit out of range, or another value.
  mutant('`limit` ignored (listProducts)', 'requests', ignoreValid('listProducts', 'limit')),
  mutant('a filter ignored (listProducts `display`)', 'requests', ignoreValid('listProducts', 'display')),
  mutant(
    'a text filter ignored (listProducts `product_name`)',
    'filters',
    ignoreValid('listProducts', 'product_name'),
    {
      caughtIn: { subject: 'listProducts', name: 'product_name ' },
    },
  ),
  mutant(
    'a range filter ignored (collection listStoreProducts `price_min`)',
    'filters',
    ignoreValid('listStoreProducts', 'price_min'),
    { api: 'collection', caughtIn: { subject: 'listStoreProducts', name: 'price_min ' } },
  ),
  ...(['admin', 'collection'] as const).map(countOffByOne),
  mutant('`fields` ignored (getProduct)', 'fields', ignoreValid('getProduct', 'fields'), {
    caughtIn: { subject: 'getProduct', name: 'fields=' },
  }),
  mutant('`embed` ignored (listProducts)', 'embed', ignoreValid('listProducts', 'embed'), {
    caughtIn: { subject: 'listProducts', name: 'embed=' },
  }),
  mutant(
    'a date range ignored (analytics listVisitorViews answers a fixed period)',
    'period',
    fixedPeriod('listVisitorViews'),
    { api: 'analytics', caughtIn: { subject: 'listVisitorViews', name: 'start_date–end_date narrowed' } },
  ),
  mutant(
    '404 answered with another error code (getProduct)',
    'errors',
    onOperation('getProduct', () => ({
      answer(answer) {
        if (answer.status !== 404) return;
        const body = bodyOf(answer.body);
        if (isJsonObject(body.error)) body.error.code = 'invalid_parameter';
        answer.body = JSON.stringify(body);
      },
    })),
    { caughtIn: { subject: 'getProduct', name: 'an unknown product_no' } },
  ),
  mutant(
    'sorting reversed (listProducts)',
    'requests',
    rewriteQuery('listProducts', (query) => {
      const flipped = { asc: 'desc', desc: 'asc' }[query.get('order') ?? ''];
      if (flipped) query.set('order', flipped);
    }),
  ),
  mutant(
    '`offset` off by one page (listProducts)',
    'paging',
    rewriteQuery('listProducts', (query) => {
      const offset = Number(query.get('offset') ?? 0);
      if (offset > 0) query.set('offset', String(offset + Number(query.get('limit') ?? 0)));
    }),
  ),
  mutant(
    'one validation rule dropped (listCategories `limit` maximum)',
    'requests',
    changeParameter('listCategories', 'limit', (parameter) => {
      if (isJsonObject(parameter.schema)) delete parameter.schema.maximum;
    }),
  ),
  mutant(
    'a write not persisted (updateCategory answers without storing)',
    'sequence',
    onOperation('updateCategory', () => ({
      request: (request, forward) => forward({ ...request, method: 'GET', body: '' }),
    })),
  ),
  mutant(
    'a delete not deleting (deleteCategory answers without deleting)',
    'sequence',
    onOperation('deleteCategory', () => ({
      async request(request, forward) {
        // The mock still checks the credential (as a read); the record stays.
        const read = await forward({ ...request, method: 'GET', body: '' });
        if (read.status !== 200) return read;
        const category_no = Number(request.url.pathname.split('/').pop());
        return { ...read, body: JSON.stringify({ category: { category_no } }) };
      },
    })),
  ),
  mutant(
    'bucket size changed (40 → 50)',
    'rate-limit',
    changeRateLimit((limit) => {
      limit.capacity = 50;
    }),
  ),
  mutant(
    'drain rate changed (2/s → 4/s)',
    'rate-limit',
    changeRateLimit((limit) => {
      limit['drain-per-second'] = 4;
    }),
  ),
  mutant(
    'a date-range rule missing (listVisitorViews end_date before start_date)',
    'requests',
    changeParameter('listVisitorViews', 'end_date', (parameter) => {
      delete parameter['x-not-less-than'];
    }),
    { api: 'analytics' },
  ),
  mutant('a scope check dropped (getCategory)', 'auth', dropScope('getCategory')),
  mutant('a scope check dropped on a write (updateCategory)', 'auth', dropScope('updateCategory')),
  ...(
    [
      ['createProduct', 'x-decimal-maximum'],
      ['createProduct', 'x-not-less-than'],
      ['createProduct', 'x-joined-max-length'],
      ['createProduct', 'x-max-value-combinations'],
      ['updateMainProduct', 'x-subset-of'],
    ] as const
  ).map(([operationId, kind]) =>
    mutant(`a body rule ignored (${operationId} ${kind})`, 'requests', ignoreBodyRule(operationId, kind)),
  ),
  mutant(
    'a field dropped (getCategory `category_name`)',
    'sequence',
    rewriteBody('getCategory', (body) => {
      if (isJsonObject(body.category)) delete body.category.category_name;
    }),
    { kind: 'shallow' },
  ),
  mutant(
    'a type changed (listProducts `product_no` as a string)',
    'requests',
    rewriteBody('listProducts', (body) => {
      for (const item of firstList(body)) item.product_no = String(item.product_no) as Json;
    }),
    { kind: 'shallow' },
  ),
  mutant(
    '422 answered as 400 (collection)',
    'requests',
    {
      touches: 'every',
      proxy: () => ({
        answer(answer) {
          if (answer.status === 422) answer.status = 400;
        },
      }),
    },
    { api: 'collection', kind: 'shallow' },
  ),
  mutant(
    'a header missing (collection X-RateLimit-Remaining)',
    'requests',
    {
      touches: 'every',
      proxy: () => ({
        answer(answer) {
          delete answer.headers['x-ratelimit-remaining'];
        },
      }),
    },
    { api: 'collection', kind: 'shallow' },
  ),
];

/**
 * The operations whose checks can see `mutant` (for a run's `operations`): those it touches and
 * the create operations of the sequences through them; undefined when it touches every operation.
 */
export function operationsSeeing(mutant: Mutant, model: SpecModel): readonly string[] | undefined {
  const { touches } = mutant;
  if (touches === 'every') return undefined;
  const through = findSequences(model)
    .filter((sequence) =>
      [
        sequence.create,
        ...[sequence.read, sequence.list, sequence.update, sequence.remove].map((step) => step?.operation),
      ].some((operation) => operation && touches.includes(operation.operationId)),
    )
    .map((sequence) => sequence.create.operationId);
  return [...new Set([...touches, ...through])];
}

/** Starts the mock of `mutant.api` broken as `mutant` says, as a conformance target. */
export async function startMutant(mutant: Mutant): Promise<LocalTarget> {
  const model = await loadSpec(mutant.api);
  const copy = mutant.spec ? structuredClone(model.document) : undefined;
  if (copy) mutant.spec?.(copy);
  const proxy = mutant.proxy?.(model);
  return startLocalTarget(mutant.api, {
    ...(copy ? { spec: createSpecModel(copy) } : {}),
    ...(proxy ? { front: (url: string) => startMutantProxy(url, proxy) } : {}),
  });
}
