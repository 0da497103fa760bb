import type { Mode, Scope } from '@cartwright/core';
import type {
  CustomerAddressRecord,
  CustomerRecord,
  CustomerRepository,
  JsonObject,
  Page,
  PageRequest,
  Patch,
} from '@cartwright/core/storage';
import { type Selectable, type SqlBool, sql } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { type EncodedRow, insertRows, insertTemplate } from '../query/insert-template';
import { keysetList, runKeysetList } from '../query/keyset-list';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { CustomerAddressesTable, CustomersTable } from '../schema/database';
import { containsPattern } from './catalog-codecs';

type ScopeSlots = 'store_id' | 'mode';

const insert = insertTemplate('customers');
const insertAddressRow = insertTemplate('customer_addresses');

const get = template(({ db }, p: Slots<ScopeSlots | 'id'>) =>
  db
    .selectFrom('customers')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('deleted_at', 'is', null),
);
const byEmail = template(({ db }, p: Slots<ScopeSlots | 'email'>) =>
  db
    .selectFrom('customers')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('email_lower', '=', p.email)
    .where('deleted_at', 'is', null),
);
const update = updateTemplate('customers', { where: 'deleted_at is null' });
const softDelete = template(({ db }, p: Slots<ScopeSlots | 'id' | 'at'>) =>
  db
    .updateTable('customers')
    .set({ deleted_at: p.at, updated_at: p.at })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where('deleted_at', 'is', null),
);
/** One address by id, if it is one of these customers'. */
const addressById = template(({ db, caps }, p: Slots<ScopeSlots | 'ids' | 'id'>) =>
  db
    .selectFrom('customer_addresses')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('id', '=', p.id)
    .where(caps.inList(sql.ref('customer_id'), p.ids)),
);
const addressesOf = template(({ db, caps }, p: Slots<ScopeSlots | 'ids'>) =>
  db
    .selectFrom('customer_addresses')
    .selectAll()
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where(caps.inList(sql.ref('customer_id'), p.ids))
    .orderBy('customer_id')
    .orderBy('created_at')
    .orderBy('id'),
);
const updateAddressRow = updateTemplate<'customer_addresses', 'customer_id'>('customer_addresses', {
  guard: (p) => sql<SqlBool>`customer_id = ${p.customer_id}`,
});
const deleteAddressRow = template(({ db }, p: Slots<ScopeSlots | 'customer_id' | 'id'>) =>
  db
    .deleteFrom('customer_addresses')
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('customer_id', '=', p.customer_id)
    .where('id', '=', p.id),
);
const clearDefault = template(({ db }, p: Slots<ScopeSlots | 'customer_id' | 'id' | 'false'>) =>
  db
    .updateTable('customer_addresses')
    .set({ is_default: p.false })
    .where('store_id', '=', p.store_id)
    .where('mode', '=', p.mode)
    .where('customer_id', '=', p.customer_id)
    .where('id', '!=', p.id)
    .where(sql<SqlBool>`is_default = true`),
);

const list = keysetList({
  table: 'customers',
  sorts: { created_at: ['created_at'] },
  filterKey: (f: { q: boolean; status: boolean; tag: boolean }) =>
    `${f.q ? 'q' : ''}${f.status ? 's' : ''}${f.tag ? 't' : ''}`,
  base: ({ db, caps }, p: Slots<ScopeSlots | 'q' | 'status' | 'tag'>, f) => {
    let query = db
      .selectFrom('customers')
      .where('store_id', '=', p.store_id)
      .where('mode', '=', p.mode)
      .where('deleted_at', 'is', null);
    if (f.q) query = query.where(sql<SqlBool>`search_text like ${p.q} escape '\\'`);
    if (f.status) query = query.where('status', '=', p.status);
    if (f.tag) query = query.where(caps.jsonArrayContainsAll(sql.ref('tags'), p.tag));
    return query;
  },
});

/** Lower-cased e-mail and names: what the admin `q` filter matches (partially). */
function searchText(customer: Pick<CustomerRecord, 'email' | 'first_name' | 'last_name'>): string {
  return [customer.email, customer.first_name, customer.last_name]
    .filter((part): part is string => typeof part === 'string' && part !== '')
    .join(' ')
    .toLowerCase();
}

function decode(row: Selectable<CustomersTable>, c: DialectCapabilities): CustomerRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    phone: row.phone,
    external_id: row.external_id,
    status: row.status as CustomerRecord['status'],
    tags: c.parseJson<string[]>(row.tags),
    metadata: c.parseJson<JsonObject>(row.metadata),
    password_hash: row.password_hash,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function encode(record: CustomerRecord, c: DialectCapabilities): EncodedRow<'customers'> {
  return {
    ...record,
    email_lower: record.email.toLowerCase(),
    search_text: searchText(record),
    tags: c.json(record.tags),
    metadata: c.json(record.metadata),
    deleted_at: null,
  };
}

function decodeAddress(
  row: Selectable<CustomerAddressesTable>,
  c: DialectCapabilities,
): CustomerAddressRecord {
  return {
    id: row.id,
    store_id: row.store_id,
    mode: row.mode as Mode,
    customer_id: row.customer_id,
    name: row.name,
    first_name: row.first_name,
    last_name: row.last_name,
    company: row.company,
    label: row.label,
    receiver_name: row.receiver_name,
    line1: row.line1,
    line2: row.line2,
    city: row.city,
    state: row.state,
    postal_code: row.postal_code,
    country: row.country,
    phone: row.phone,
    type: row.type as CustomerAddressRecord['type'],
    is_default: c.toBool(row.is_default),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Customers and their addresses. E-mails are unique per scope case-insensitively (the unique
 * index is on `email_lower`, live customers only).
 */
export class KyselyCustomerRepository implements CustomerRepository {
  constructor(private readonly q: QueryRunner) {}

  async insert(record: CustomerRecord): Promise<void> {
    await insertRows(this.q, insert, 'customers', [encode(record, this.q.caps)]);
  }

  async get(scope: Scope, key: string | { email: string }): Promise<CustomerRecord | null> {
    const row =
      typeof key === 'string'
        ? await this.q.first(get, { ...scope, id: key })
        : await this.q.first(byEmail, { ...scope, email: key.email.toLowerCase() });
    return row ? decode(row, this.q.caps) : null;
  }

  list(
    scope: Scope,
    filter: { q?: string | undefined; status?: 'active' | 'disabled' | undefined; tag?: string | undefined },
    page: PageRequest<'created_at'>,
  ): Promise<Page<CustomerRecord>> {
    const c = this.q.caps;
    const shape = {
      q: filter.q !== undefined && filter.q !== '',
      status: filter.status !== undefined,
      tag: filter.tag !== undefined,
    };
    const args = {
      q: shape.q ? containsPattern(filter.q as string) : undefined,
      status: filter.status,
      tag: filter.tag === undefined ? undefined : c.json([filter.tag]),
    };
    return runKeysetList(this.q, list, scope, shape, args, page, (rows) => rows.map((row) => decode(row, c)));
  }

  async update(
    scope: Scope,
    id: string,
    patch: Patch<
      CustomerRecord,
      | 'email'
      | 'first_name'
      | 'last_name'
      | 'phone'
      | 'external_id'
      | 'status'
      | 'tags'
      | 'metadata'
      | 'password_hash'
    >,
  ): Promise<CustomerRecord | null> {
    const c = this.q.caps;
    let search: string | undefined;
    if (patch.email !== undefined || patch.first_name !== undefined || patch.last_name !== undefined) {
      const current = await this.get(scope, id);
      if (!current) return null;
      search = searchText({ ...current, ...definedOnly(patch) });
    }
    const { shape, args } = updateArgs(
      {
        email: patch.email,
        email_lower: patch.email?.toLowerCase(),
        search_text: search,
        first_name: patch.first_name,
        last_name: patch.last_name,
        phone: patch.phone,
        external_id: patch.external_id,
        status: patch.status,
        tags: patch.tags === undefined ? undefined : c.json(patch.tags),
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        password_hash: patch.password_hash,
        updated_at: patch.updated_at,
      },
      { ...scope, id },
    );
    const row = await this.q.first(update, args, shape);
    return row ? decode(row, c) : null;
  }

  async delete(scope: Scope, id: string, at: number): Promise<boolean> {
    return (await this.q.affected(softDelete, { ...scope, id, at })) > 0;
  }

  async insertAddress(record: CustomerAddressRecord): Promise<void> {
    await insertRows(this.q, insertAddressRow, 'customer_addresses', [
      { ...record, is_default: this.q.caps.bool(record.is_default) },
    ]);
  }

  async listAddresses(
    scope: Scope,
    customer_ids: string[],
    filter?: { id?: string | undefined },
  ): Promise<CustomerAddressRecord[]> {
    if (customer_ids.length === 0) return [];
    const ids = this.q.caps.list(customer_ids);
    const rows =
      filter?.id === undefined
        ? await this.q.rows(addressesOf, { ...scope, ids })
        : await this.q.rows(addressById, { ...scope, ids, id: filter.id });
    return rows.map((row) => decodeAddress(row, this.q.caps));
  }

  async updateAddress(
    scope: Scope,
    customer_id: string,
    id: string,
    patch: Patch<
      CustomerAddressRecord,
      | 'name'
      | 'first_name'
      | 'last_name'
      | 'company'
      | 'label'
      | 'receiver_name'
      | 'line1'
      | 'line2'
      | 'city'
      | 'state'
      | 'postal_code'
      | 'country'
      | 'phone'
      | 'type'
      | 'is_default'
    >,
  ): Promise<CustomerAddressRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        name: patch.name,
        first_name: patch.first_name,
        last_name: patch.last_name,
        company: patch.company,
        label: patch.label,
        receiver_name: patch.receiver_name,
        line1: patch.line1,
        line2: patch.line2,
        city: patch.city,
        state: patch.state,
        postal_code: patch.postal_code,
        country: patch.country,
        phone: patch.phone,
        type: patch.type,
        is_default: patch.is_default === undefined ? undefined : c.bool(patch.is_default),
        updated_at: patch.updated_at,
      },
      { ...scope, id },
      { customer_id },
    );
    const row = await this.q.first(updateAddressRow, args, shape);
    return row ? decodeAddress(row, c) : null;
  }

  async deleteAddress(scope: Scope, customer_id: string, id: string): Promise<boolean> {
    return (await this.q.affected(deleteAddressRow, { ...scope, customer_id, id })) > 0;
  }

  async clearDefaultAddress(scope: Scope, customer_id: string, except_id: string): Promise<void> {
    await this.q.affected(clearDefault, {
      ...scope,
      customer_id,
      id: except_id,
      false: this.q.caps.bool(false),
    });
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
