// Every documented request field of every admin write is stored, generated from the spec: for each
// write operation with a JSON `request` object and each of its fields (walked from the request
// schema through the spec model, so a field added to the spec is covered without editing this
// file), a value valid for the field's schema is written — with what the schema then requires
// besides — and read back through the read the spec pairs with the write: the create response's
// `links` to a read, else the read at the write's own path. The field reads back as sent under its
// own name, unless the spec declares it `x-computed`: then the attributes it names change. A new
// record holds each field its create did not send at the documented `default`, else null or
// absent, never an example value. The records a write refers to (`category_no`, `product_no`,
// `display_group`, the path parameters' names) exist: made through the creates whose links give
// them, or read from a list; an update's subject is made by that create with every field, and by
// the create at the update's own path (a placement before its update) when there is one.
// A write that names a shop (the body's `shop_no`) made for shop 2 reads back in shop 2; what is
// kept under a record (its settings, its placements) is each shop's, so shop 1 reads it unchanged,
// and so are the attributes of a shared record the spec declares `x-per-shop` (an update sends
// another value for each in shop 2, which shop 1 does not show).
import {
  isJsonObject,
  type Json,
  linkValue,
  type OperationEntry,
  perShopAttributesOf,
  queryMeaningsOf,
  type SpecModel,
} from '@mall-api/spec-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaValue } from '../testing/schema-values.js';
import { type Body, closeTestMalls, openMall, shippedSpecs } from '../testing/test-malls.js';

const admin: SpecModel = (await shippedSpecs()).admin;
let mall: Awaited<ReturnType<typeof openMall>>;
/** Two existing records by the name of their identifier (`category_no` → two categories). */
const identifiers = new Map<string, number[]>();

const bodies = new Map<OperationEntry, Body | undefined>();
/** An operation's body schema, dereferenced once (so its rules compile once). */
const bodySchemaOf = (operation: OperationEntry): Body | undefined => {
  if (!bodies.has(operation))
    bodies.set(
      operation,
      operation.bodySchema ? (admin.dereference(operation.bodySchema) as Body) : undefined,
    );
  return bodies.get(operation);
};
/** The `request` object schema of an operation's body, dereferenced. */
const requestSchemaOf = (operation: OperationEntry): Body | undefined => {
  const body = bodySchemaOf(operation);
  return isJsonObject(body?.properties?.request) ? body.properties.request : undefined;
};
/** Whether an operation's body names a shop (`shop_no` beside its `request`). */
const namesShop = (operation: OperationEntry) => isJsonObject(bodySchemaOf(operation)?.properties?.shop_no);
/** The writes with a `request` object of fields. */
const writes = admin.operations.filter(
  (operation) => operation.method !== 'get' && isJsonObject(requestSchemaOf(operation)?.properties),
);
/** The names of record identifiers: every path parameter of the API. */
const identifierNames = new Set(
  admin.operations.flatMap((o) => o.parameters.filter((p) => p.in === 'path').map((p) => p.name)),
);
const pathNames = (operation: OperationEntry) =>
  operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
/** The creates (no path parameters) whose links give a value for the parameter `name`. */
const creatorsOf = (name: string) =>
  admin.operations.filter(
    (o) => o.method === 'post' && pathNames(o).length === 0 && o.links.some((l) => name in l.parameters),
  );

/**
 * A body of `operation` whose request holds `fields`, made valid by the schema's own rules and
 * complaints: a field a rule fixes for the fields sent is set, a field it requires is added, a
 * field it fixes (`const`, `enum`) is set.
 */
function validBody(operation: OperationEntry, fields: Body): Body {
  const schema = requestSchemaOf(operation) as Body;
  const request: Body = { ...fields };
  const validate = admin.schemas().compile(operation.bodySchema as Body);
  // What a rule fixes for the fields sent (`if` it holds, `then` a `const`) is sent with them, so a
  // rule the service checks against stored values holds too.
  for (const rule of (schema.allOf ?? []) as Body[])
    if (rule.if && admin.schemas().compile(rule.if)(request))
      for (const [name, fixed] of Object.entries((rule.then?.properties ?? {}) as Body))
        if ('const' in fixed) request[name] = fixed.const;
  for (let round = 0; round < 10; round++) {
    if (validate({ request })) return { request };
    for (const error of validate.errors ?? []) {
      const [root, field, ...deeper] = error.instancePath.split('/').slice(1);
      if (root !== 'request' || deeper.length > 0) continue;
      const missing = error.params.missingProperty as string | undefined;
      if (field === undefined && missing !== undefined && !(missing in request))
        request[missing] = schemaValue(schema.properties[missing], identifiers, missing);
      else if (field !== undefined && error.keyword === 'const') request[field] = error.params.allowedValue;
      else if (field !== undefined && error.keyword === 'enum')
        request[field] = (error.params.allowedValues as unknown[])[0];
    }
  }
  throw new Error(
    `no valid ${operation.operationId} body with ${Object.keys(fields)}: ${JSON.stringify(validate.errors)}`,
  );
}
/** The body of `operation` with only what its request requires. */
const minimalBody = (operation: OperationEntry) => validBody(operation, {});
/** The body of `operation` with every field of its request. */
const fullBody = (operation: OperationEntry) => {
  const schema = requestSchemaOf(operation) as Body;
  return validBody(
    operation,
    Object.fromEntries(
      Object.entries(schema.properties as Body).map(([name, field]) => [
        name,
        schemaValue(field, identifiers, name),
      ]),
    ),
  );
};

/** The answer of a write or read (failing the test on a refusal). */
const call = async (operation: OperationEntry, path: Body, parts: { query?: Body; body?: Body } = {}) =>
  await mall.answered('admin', operation.operationId, { path, query: parts.query ?? {}, body: parts.body });

/** The read that shows what `write` stored, and its path parameters from the write's answer or path. */
function readOf(write: OperationEntry): {
  read: OperationEntry;
  path: (answer: Body, writePath: Body) => Body;
} {
  for (const link of write.links) {
    const read = admin.operation(link.operationId);
    if (
      read?.method === 'get' &&
      pathNames(read).length > 0 &&
      pathNames(read).every((n) => n in link.parameters)
    )
      return {
        read,
        path: (answer) =>
          Object.fromEntries(
            pathNames(read).map((n) => [n, linkValue(link.parameters[n] as Json, answer as Json)]),
          ),
      };
  }
  const read = admin.operations.find((o) => o.method === 'get' && o.pathTemplate === write.pathTemplate);
  if (!read) throw new Error(`${write.operationId}: the spec pairs no read with it`);
  return { read, path: (_answer, writePath) => writePath };
}

/** The records a read answered: its one record, or its list. */
function recordsOf(answer: Body): Body[] {
  const value = Object.values(answer)[0];
  return Array.isArray(value) ? value : [value];
}

/** Whether `stored` holds `sent`: equal scalars, objects holding every field sent, arrays item by item. */
function holds(stored: unknown, sent: unknown): boolean {
  if (Array.isArray(sent))
    return (
      Array.isArray(stored) &&
      stored.length === sent.length &&
      sent.every((item, i) => holds(stored[i], item))
    );
  if (isJsonObject(sent as Json))
    return (
      isJsonObject(stored as Json) &&
      Object.entries(sent as Body).every(([k, v]) => holds((stored as Body)[k], v))
    );
  return stored === sent;
}
/** Whether the read's records show `field` as sent: one record holds it, or each sent item is one record's. */
function shows(records: readonly Body[], field: string, sent: unknown): boolean {
  if (records.some((record) => holds(record[field], sent))) return true;
  return Array.isArray(sent) && sent.every((item) => records.some((record) => holds(record[field], item)));
}

/**
 * The path parameters of `write` naming records made for it: by their create with every field but
 * `left` (the computed field under test, so its update shows), and with `first` (the first value of
 * the field under test) where the create takes it, so the record meets the rules its update is
 * checked against; a placement is made first by the create at the write's own path. The records
 * are made in the first of `shops` where their create names a shop, a placement in each of them.
 */
async function subjectOf(
  write: OperationEntry,
  first: Body,
  left?: string,
  shops: readonly number[] = [1],
): Promise<Body> {
  const path: Body = {};
  const withFirst = (operation: OperationEntry, shopNo = shops[0] ?? 1) => {
    const { [left ?? '']: _left, ...fields } = fullBody(operation).request;
    const properties = (requestSchemaOf(operation) as Body).properties;
    const taken = Object.entries(first).filter(([field]) => field in properties && field !== left);
    const inShop = (body: Body) =>
      shopNo !== 1 && namesShop(operation) ? { ...body, shop_no: shopNo } : body;
    try {
      return inShop(validBody(operation, { ...fields, ...Object.fromEntries(taken) }));
    } catch {
      return inShop(validBody(operation, fields)); // the field has another shape there
    }
  };
  for (const name of pathNames(write)) {
    // The create whose links lead to this write, else any that gives the parameter.
    const creators = creatorsOf(name).filter((c) => c !== write);
    const creator =
      creators.find((c) => c.links.some((l) => l.operationId === write.operationId)) ?? creators[0];
    if (!creator) {
      path[name] = identifiers.get(name)?.[0];
      continue;
    }
    const answer = await call(creator, {}, { body: withFirst(creator) });
    const link = creator.links.find((l) => name in l.parameters);
    path[name] = linkValue(link?.parameters[name] as Json, answer as Json);
  }
  const placing = admin.operations.find(
    (o) => o !== write && o.method === 'post' && o.pathTemplate === write.pathTemplate,
  );
  if (placing && write.method !== 'post')
    for (const shopNo of shops) await call(placing, path, { body: withFirst(placing, shopNo) });
  return path;
}

/** The name of an operation's shop parameter (`x-query` role `shop`), if it has one. */
const shopParameterOf = (operation: OperationEntry) =>
  queryMeaningsOf(operation).find((meaning) => meaning.role === 'shop')?.name;
/**
 * Whether the record `write` shows is one record of the mall, shared by its shops: one a create
 * without path parameters makes (a product, a category). What is kept under such a record at a
 * longer path (its settings, its placements) is each shop's own.
 */
const sharedRecord = (write: OperationEntry) => {
  const { read } = readOf(write);
  return admin.operations.some(
    (o) =>
      o.method === 'post' &&
      pathNames(o).length === 0 &&
      (o.pathTemplate === read.pathTemplate || o.links.some((l) => l.operationId === read.operationId)),
  );
};
/** The attributes of the records `read` answers that each shop keeps for itself (`x-per-shop`). */
const perShopOf = (read: OperationEntry): string[] => {
  const ok = admin.resolveOptional(read.responses['200']);
  const body = admin.dereference((ok?.content as Body)?.['application/json']?.schema ?? {}) as Body;
  const [first] = Object.values((body.properties ?? {}) as Body) as Body[];
  const record = first?.items ?? first;
  return isJsonObject(record) ? perShopAttributesOf(record) : [];
};
/** The writes whose body names a shop and whose paired read takes one. */
const shopWrites = writes.filter(
  (write) => namesShop(write) && shopParameterOf(readOf(write).read) !== undefined,
);

/** The query of a read taking the write's request fields of the same names (a placement's `display_group`). */
const readQuery = (read: OperationEntry, request: Body) =>
  Object.fromEntries(
    read.parameters
      .filter((p) => p.in === 'query' && p.name in request)
      .map((p) => [p.name, request[p.name]]),
  );

beforeAll(async () => {
  mall = await openMall('writes', { mall: { ageVerification: true, shops: 2 } });
  // Identifiers: each made by the first create that can make it with what it requires, then two
  // made with every field once all exist (so they refer to each other and show in every section);
  // else the first two a list shows.
  const makers = new Map<string, OperationEntry>();
  const make = async (name: string, creator: OperationEntry, body: Body) => {
    const outcome = await mall.handle('admin', creator.operationId, { body });
    const link = creator.links.find((l) => name in l.parameters);
    const made = outcome.ok ? linkValue(link?.parameters[name] as Json, outcome.body as Json) : undefined;
    return typeof made === 'number' ? made : undefined;
  };
  for (let pass = 0; pass < identifierNames.size; pass++)
    for (const name of identifierNames)
      for (const creator of creatorsOf(name)) {
        const made = identifiers.has(name) ? undefined : await make(name, creator, minimalBody(creator));
        if (made === undefined) continue;
        identifiers.set(name, [made]);
        makers.set(name, creator);
      }
  for (const [name, creator] of makers) {
    const made = [await make(name, creator, fullBody(creator)), await make(name, creator, fullBody(creator))];
    expect(made, name).not.toContain(undefined);
    identifiers.set(name, made as number[]);
  }
  for (const name of identifierNames) {
    if (identifiers.has(name)) continue;
    for (const list of admin.operations.filter(
      (o) => o.method === 'get' && o.parameters.every((p) => !p.required),
    )) {
      const shown = recordsOf(await call(list, {})).flatMap((record) =>
        typeof record?.[name] === 'number' ? [record[name]] : [],
      );
      if (shown.length > 0) {
        identifiers.set(name, shown.slice(0, 2));
        break;
      }
    }
  }
});
afterAll(closeTestMalls);

const cases = writes.flatMap((write) =>
  Object.entries((requestSchemaOf(write) as Body).properties as Body).map(
    ([field, schema]) => [write.operationId, field, write, schema as Body] as const,
  ),
);

describe('every documented request field of every admin write is stored', () => {
  it('covers every write of the admin API with a request object', () => {
    expect(writes.map((w) => w.operationId)).toEqual(
      expect.arrayContaining(['createProduct', 'updateProduct', 'createCategory', 'updateCategorySeo']),
    );
    expect(cases.length).toBeGreaterThan(400);
  });

  it.each(cases)('%s stores %s', async (_id, field, write, schema) => {
    const { read, path: readPath } = readOf(write);
    const creates = write.method === 'post';
    const computed = schema['x-computed'] as { attributes: string[]; when?: string } | undefined;
    // A field the read selects by names what to read: an update sends the value the record has.
    const selects = read.parameters.some((p) => p.in === 'query' && p.name === field);
    const leftOut = computed !== undefined && computed.when !== 'not-sent';
    // An update of a field the subject holds sends a second value, so the change shows.
    const variant = creates || selects || leftOut ? 0 : 1;
    const first = { [field]: schemaValue(schema, identifiers, field) };
    const path = await subjectOf(write, first, leftOut ? field : undefined);
    const fields = { [field]: schemaValue(schema, identifiers, field, variant) };
    const body = creates
      ? validBody(write, { ...minimalBody(write).request, ...fields })
      : validBody(write, fields);
    const query = readQuery(read, body.request);
    // What a computed field changes is measured against the record without it.
    const before = !leftOut
      ? []
      : creates
        ? recordsOf(
            await call(read, readPath(await call(write, path, { body: minimalBody(write) }), path), {
              query,
            }),
          )
        : recordsOf(await call(read, path, { query }));
    const answer = await call(write, path, { body });
    const after = recordsOf(await call(read, readPath(answer, path), { query }));
    if (selects) expect(after, `${field} selects nothing the write made`).not.toEqual([]);
    else if (computed && computed.attributes.length === 0) expect(answer).toBeDefined();
    else if (computed && computed.when !== 'not-sent') {
      // Each record as its identifiers and the attribute: a reordering shows as a changed record.
      const seen = (records: Body[], attribute: string) =>
        records
          .map((r) => JSON.stringify([...identifierNames].map((n) => r[n]).concat([r[attribute]])))
          .sort();
      const changed = computed.attributes.filter(
        (attribute) => JSON.stringify(seen(after, attribute)) !== JSON.stringify(seen(before, attribute)),
      );
      expect(changed, `${field} (x-computed) changes none of ${computed.attributes}`).not.toEqual([]);
    } else expect(shows(after, field, body.request[field]), JSON.stringify(after).slice(0, 400)).toBe(true);
  });

  it.each(shopWrites.map((w) => [w.operationId, w] as const))(
    '%s for shop 2 reads back in shop 2, and in shop 1 as it was when the shop keeps it for itself',
    async (_id, write) => {
      const { read, path: readPath } = readOf(write);
      const shop = shopParameterOf(read) as string;
      const shared = sharedRecord(write);
      const { shop_no: _shop, ...sent } = fullBody(write).request;
      // A shop's own records: shop 1 makes and writes its own first, which shop 2's write must keep.
      const path = await subjectOf(write, sent, undefined, shared ? [2] : [1, 2]);
      // An update of a shared record sends another value for each attribute a shop keeps for itself.
      const own = shared && write.method !== 'post' ? perShopOf(read).filter((f) => f in sent) : [];
      const properties = (requestSchemaOf(write) as Body).properties as Body;
      const body = validBody(write, {
        ...sent,
        ...Object.fromEntries(own.map((f) => [f, schemaValue(properties[f], identifiers, f, 1)])),
      });
      const query = readQuery(read, body.request);
      const inShop = async (shopNo: number, answer?: Body) =>
        recordsOf(
          await call(read, answer ? readPath(answer, path) : path, { query: { ...query, [shop]: shopNo } }),
        );
      const before = shared ? undefined : await inShop(1, await call(write, path, { body }));
      const [keptInShop1] = own.length > 0 ? await inShop(1) : [];
      const answer = await call(write, path, { body: { ...body, shop_no: 2 } });
      const after = await inShop(2, answer);
      for (const record of after) if (record && 'shop_no' in record) expect(record.shop_no).toBe(2);
      const shown = Object.entries(body.request).filter(
        ([field]) =>
          !(requestSchemaOf(write) as Body).properties[field]?.['x-computed'] &&
          !read.parameters.some((p) => p.in === 'query' && p.name === field),
      );
      expect(shown.length, 'a field the read shows').toBeGreaterThan(0);
      for (const [field, value] of shown)
        expect(shows(after, field, value), `${field} in shop 2: ${JSON.stringify(after).slice(0, 300)}`).toBe(
          true,
        );
      if (before) expect(await inShop(1, answer)).toEqual(before);
      if (keptInShop1) {
        const [shop1] = await inShop(1, answer);
        const changed = own.filter((f) => JSON.stringify(keptInShop1[f]) !== JSON.stringify(body.request[f]));
        expect(changed.length, 'an attribute the shops keep apart that shop 2 changed').toBeGreaterThan(0);
        for (const field of changed)
          expect((shop1 as Body)[field], `${field} in shop 1`).toEqual(keptInShop1[field]);
      }
    },
  );

  it.each(
    writes.filter((w) => w.method === 'post' && w.links.length > 0).map((w) => [w.operationId, w] as const),
  )(
    '%s gives every field it was not sent its documented default, else null or nothing',
    async (_id, write) => {
      const { read, path } = readOf(write);
      const body = minimalBody(write);
      const [record] = recordsOf(await call(read, path(await call(write, {}, { body }), {})));
      const unexpected = Object.entries((requestSchemaOf(write) as Body).properties as Body).flatMap(
        ([field, schema]) => {
          if (
            field in body.request ||
            !(field in (record as Body)) ||
            schema['x-computed']?.when === 'not-sent'
          )
            return [];
          const value = (record as Body)[field];
          return value === null || JSON.stringify(value) === JSON.stringify(schema.default)
            ? []
            : [`${field}: ${JSON.stringify(value)}`];
        },
      );
      expect(unexpected).toEqual([]);
    },
  );
});
