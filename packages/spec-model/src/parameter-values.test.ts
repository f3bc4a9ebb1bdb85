// Parameter serialization read from the spec: defaults per location, comma lists under repeated
// keys, numbers and booleans where the schema asks for them, and the texts a value is sent as.
import { describe, expect, it } from 'vitest';
import {
  parameterExplodes,
  parameterStyle,
  parameterTexts,
  parameterValue,
  scalarValue,
} from './parameter-values.js';
import { loadSpecSync } from './spec-model.js';

const parameterOf = (operationId: string, name: string) => {
  const found = loadSpecSync('collection')
    .operation(operationId)
    ?.parameters.find((parameter) => parameter.name === name);
  if (!found) throw new Error(`no ${name} on ${operationId}`);
  return found;
};

describe('parameterStyle and parameterExplodes', () => {
  it('default to form with explode in query and cookie, simple without explode in path and header', () => {
    for (const where of ['query', 'cookie'] as const) {
      expect(parameterStyle({ name: 'a', in: where })).toBe('form');
      expect(parameterExplodes({ name: 'a', in: where })).toBe(true);
    }
    for (const where of ['path', 'header'] as const) {
      expect(parameterStyle({ name: 'a', in: where })).toBe('simple');
      expect(parameterExplodes({ name: 'a', in: where })).toBe(false);
    }
  });

  it('keep what the spec declares', () => {
    const tags = parameterOf('listProducts', 'product_standard_tags');
    expect(parameterStyle(tags)).toBe('form');
    expect(parameterExplodes(tags)).toBe(false);
  });
});

describe('scalarValue', () => {
  it('turns numerals into numbers and true/false into booleans where the schema asks', () => {
    expect(scalarValue('20', { type: 'integer' })).toBe(20);
    expect(scalarValue('-1.5e2', { type: ['number', 'null'] })).toBe(-150);
    expect(scalarValue('true', { type: 'boolean' })).toBe(true);
    expect(scalarValue('false', { type: 'boolean' })).toBe(false);
  });

  it('leaves text that does not convert, and text the schema wants as text', () => {
    expect(scalarValue('0x10', { type: 'integer' })).toBe('0x10');
    expect(scalarValue(' 5', { type: 'integer' })).toBe(' 5');
    expect(scalarValue('', { type: 'integer' })).toBe('');
    expect(scalarValue('yes', { type: 'boolean' })).toBe('yes');
    expect(scalarValue('20', { type: 'string' })).toBe('20');
    expect(scalarValue('20', undefined)).toBe('20');
  });
});

describe('parameterValue', () => {
  it('reads every occurrence of a repeated comma-list key, each split at its commas', () => {
    const tags = parameterOf('listProducts', 'product_standard_tags');
    const items = { type: 'string' };
    expect(parameterValue(tags, tags.schema, ['color:black,color:gray', 'size:m'], items)).toEqual([
      'color:black',
      'color:gray',
      'size:m',
    ]);
    expect(parameterValue(tags, tags.schema, 'color:black,size:m', items)).toEqual(['color:black', 'size:m']);
  });

  it('types list items by the item schema, defaulting to the schema’s own items', () => {
    const list = { name: 'no', in: 'query', explode: false } as const;
    expect(parameterValue(list, { type: 'array', items: { type: 'integer' } }, '1,2,x')).toEqual([1, 2, 'x']);
  });

  it('keeps each repeated key one item when exploded, and splits the delimited styles at theirs', () => {
    const schema = { type: 'array', items: { type: 'integer' } };
    expect(parameterValue({ name: 'n', in: 'query' }, schema, ['1', '2,3'])).toEqual([1, '2,3']);
    expect(
      parameterValue({ name: 'n', in: 'query', style: 'pipeDelimited', explode: false }, schema, '1|2'),
    ).toEqual([1, 2]);
    expect(parameterValue({ name: 'n', in: 'path' }, schema, '4,5')).toEqual([4, 5]);
  });

  it('reads the first occurrence of a repeated scalar key', () => {
    const limit = parameterOf('listProducts', 'limit');
    expect(parameterValue(limit, limit.schema, ['20', '30'])).toBe(20);
    expect(parameterValue(limit, limit.schema, [])).toBe('');
  });
});

describe('parameterTexts', () => {
  it('sends a list under one key as a comma list unless the parameter explodes', () => {
    const tags = parameterOf('listProducts', 'product_standard_tags');
    expect(parameterTexts(tags, ['a:1', 'b:2'])).toEqual(['a:1,b:2']);
    expect(parameterTexts({ name: 'n', in: 'query' }, [1, 2])).toEqual(['1', '2']);
    expect(
      parameterTexts({ name: 'n', in: 'query', style: 'spaceDelimited', explode: false }, [1, 2]),
    ).toEqual(['1 2']);
    expect(parameterTexts({ name: 'n', in: 'header' }, 7)).toEqual(['7']);
  });

  it('round-trips with parameterValue', () => {
    const tags = parameterOf('listProducts', 'product_standard_tags');
    const value = ['color:black', 'size:m'];
    expect(parameterValue(tags, tags.schema, parameterTexts(tags, value), { type: 'string' })).toEqual(value);
  });
});
