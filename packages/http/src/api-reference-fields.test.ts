import { describe, expect, it } from 'vitest';
import { constraintNotes, type FieldRow, SchemaReader } from './api-reference-fields';

const Money = {
  type: 'object',
  properties: { amount: { type: 'integer' }, currency: { type: 'string' } },
  required: ['amount', 'currency'],
  description: 'An amount in minor units.',
};

const document = {
  components: {
    schemas: {
      Money,
      Line: {
        type: 'object',
        properties: { variant_id: { type: 'string' }, quantity: { type: 'integer', minimum: 1, default: 1 } },
        required: ['variant_id'],
      },
      Order: {
        type: 'object',
        properties: {
          lines: { type: 'array', items: { $ref: '#/components/schemas/Line' }, minItems: 1 },
          total: { $ref: '#/components/schemas/Money' },
          discount: { allOf: [{ $ref: '#/components/schemas/Money' }, { type: ['object', 'null'] }] },
          note: { type: ['string', 'null'] },
          status: { type: 'string', enum: ['draft', 'pending'], default: 'draft' },
        },
        required: ['lines', 'total'],
        additionalProperties: false,
      },
      Category: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/components/schemas/Category' } },
        },
      },
    },
  },
};

const reader = new SchemaReader(document);

function row(rows: FieldRow[], path: string): FieldRow | undefined {
  return rows.find((r) => r.path === path);
}

describe('SchemaReader.fields', () => {
  it('expands $refs in place: Order → lines, lines[].variant_id, lines[].quantity, total.amount…', () => {
    const rows = reader.fields({ $ref: '#/components/schemas/Order' });
    expect(rows.map((r) => r.path)).toEqual([
      'lines',
      'lines[].variant_id',
      'lines[].quantity',
      'total',
      'total.amount',
      'total.currency',
      'discount',
      'discount.amount',
      'discount.currency',
      'note',
      'status',
    ]);
    expect(row(rows, 'lines')).toMatchObject({ type: 'array of Line', required: true, depth: 0 });
    expect(row(rows, 'lines[].quantity')).toMatchObject({
      type: 'integer',
      required: false,
      depth: 1,
      notes: ['≥ 1', 'default: 1'],
    });
    expect(row(rows, 'total')).toMatchObject({ type: 'Money', description: 'An amount in minor units.' });
  });

  it('a nullable $ref (allOf [$ref, {type: [object, null]}]) reads "Money | null"; a type array "string | null"', () => {
    const rows = reader.fields({ $ref: '#/components/schemas/Order' });
    expect(row(rows, 'discount')?.type).toBe('Money | null');
    expect(row(rows, 'note')?.type).toBe('string | null');
    expect(row(rows, 'status')?.notes).toEqual(['one of: draft, pending', 'default: draft']);
  });

  it('anyOf integer | object | null lists the object variant’s fields under the same name', () => {
    const rows = reader.fields({
      type: 'object',
      properties: {
        price: {
          anyOf: [
            { type: 'integer', minimum: 0 },
            { type: 'object', properties: { amount: { type: 'integer' } }, required: ['amount'] },
            { type: 'null' },
          ],
        },
      },
    });
    expect(rows).toEqual([
      { path: 'price', depth: 0, type: 'integer | object | null', required: false, notes: ['≥ 0'] },
      { path: 'price.amount', depth: 1, type: 'integer', required: true, notes: [] },
    ]);
  });

  it('a recursive component is expanded once, then named: Category.children is "array of Category", not expanded', () => {
    const rows = reader.fields({ $ref: '#/components/schemas/Category' });
    expect(rows.map((r) => r.path)).toEqual(['name', 'children']);
    expect(row(rows, 'children')).toMatchObject({
      type: 'array of Category',
      notes: ['recursive: see Category above'],
    });
    const nested = reader.fields({
      type: 'object',
      properties: { root: { $ref: '#/components/schemas/Category' } },
    });
    expect(nested.map((r) => r.path)).toEqual(['root', 'root.name', 'root.children']);
  });

  it('constraints of scalar array items go on the array row: events → "each one of: a, b"', () => {
    const rows = reader.fields({
      type: 'object',
      properties: { events: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1 } },
    });
    expect(rows).toEqual([
      {
        path: 'events',
        depth: 0,
        type: 'array of string',
        required: false,
        notes: ['at least 1 item(s)', 'each one of: a, b'],
      },
    ]);
  });

  it('maps and formats: additionalProperties {type: string} → "map of string"; format → "string (date-time)"', () => {
    const rows = reader.fields({
      type: 'object',
      properties: {
        options: { type: 'object', additionalProperties: { type: 'string' } },
        metadata: { type: 'object', additionalProperties: {} },
        created_at: { type: 'string', format: 'date-time' },
      },
    });
    expect(rows.map((r) => [r.path, r.type])).toEqual([
      ['options', 'map of string'],
      ['metadata', 'object'],
      ['created_at', 'string (date-time)'],
    ]);
  });
});

describe('SchemaReader.summarise', () => {
  it('names the component and says whether unknown fields are refused', () => {
    expect(reader.summarise({ $ref: '#/components/schemas/Order' })).toMatchObject({
      type: 'Order',
      refName: 'Order',
      closed: true,
    });
    expect(reader.summarise({ $ref: '#/components/schemas/Money' }).closed).toBe(false);
    expect(reader.summarise({ type: 'string' }).type).toBe('string');
  });
});

describe('constraintNotes', () => {
  it('limit 1..100 default 20 → ["≥ 1", "≤ 100", "default: 20"]', () => {
    expect(constraintNotes({ type: 'integer', minimum: 1, maximum: 100, default: 20 })).toEqual([
      '≥ 1',
      '≤ 100',
      'default: 20',
    ]);
    expect(constraintNotes({ exclusiveMinimum: 0, maxLength: 3, pattern: '^[A-Z]{3}$' })).toEqual([
      '> 0',
      'length ≤ 3',
      'pattern ^[A-Z]{3}$',
    ]);
  });
});
