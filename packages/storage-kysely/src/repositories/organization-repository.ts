import type { JsonObject, OrganizationRecord, OrganizationRepository, Patch } from '@cartwright/core/storage';
import type { Selectable } from 'kysely';
import type { DialectCapabilities } from '../dialects/dialect-capabilities';
import { insertRows, insertTemplate } from '../query/insert-template';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { OrganizationsTable } from '../schema/database';

const insert = insertTemplate('organizations');
const getFirst = template(({ db }) =>
  db.selectFrom('organizations').selectAll().orderBy('created_at').orderBy('id').limit(1),
);
const get = template(({ db }, p: Slots<'id'>) =>
  db.selectFrom('organizations').selectAll().where('id', '=', p.id),
);
const update = updateTemplate('organizations', { scoped: false });

export function decodeOrganization(
  row: Selectable<OrganizationsTable>,
  c: DialectCapabilities,
): OrganizationRecord {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    billing_email: row.billing_email,
    metadata: c.parseJson<JsonObject>(row.metadata),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Organizations: a global table (one per installation today). */
export class KyselyOrganizationRepository implements OrganizationRepository {
  constructor(private readonly q: QueryRunner) {}

  async get(id?: string): Promise<OrganizationRecord | null> {
    const row = id === undefined ? await this.q.first(getFirst, {}) : await this.q.first(get, { id });
    return row ? decodeOrganization(row, this.q.caps) : null;
  }

  async insert(record: OrganizationRecord): Promise<void> {
    const c = this.q.caps;
    await insertRows(this.q, insert, 'organizations', [{ ...record, metadata: c.json(record.metadata) }]);
  }

  async update(
    id: string,
    patch: Patch<OrganizationRecord, 'name' | 'billing_email' | 'metadata' | 'plan'>,
  ): Promise<OrganizationRecord | null> {
    const c = this.q.caps;
    const { shape, args } = updateArgs(
      {
        name: patch.name,
        plan: patch.plan,
        billing_email: patch.billing_email,
        metadata: patch.metadata === undefined ? undefined : c.json(patch.metadata),
        updated_at: patch.updated_at,
      },
      { id },
    );
    const row = await this.q.first(update, args, shape);
    return row ? decodeOrganization(row, c) : null;
  }
}
