import { type CreateTableBuilder, type Migration, sql } from 'kysely';
import { columnDataType, type SchemaDialect } from './column-types';

/**
 * Organization members and staff sessions (decisions §23). Frozen once released: never import
 * live code into a migration.
 *
 * - `members`: global, keyed by the organization (members are shared by both modes); primary key
 *   `id`; `members_email_unique (organization_id, email_lower)` (409 `duplicate_email`, e-mails
 *   compared case-insensitively as customers'), `members_user_id_unique (organization_id,
 *   user_id)` (409 `duplicate_user_id`); `password_hash` null until the invitation is accepted.
 *   MariaDB: `user_id` holds the host's identities, up to 255 characters (varchar(255)).
 * - `member_tokens`: single-use invitation tokens, stored only as their SHA-256
 *   (`member_tokens_token_hash_unique`: a claim is one `DELETE … RETURNING` through it), cascading
 *   with their member.
 * - `staff_sessions`: the console's sessions, stored only as their SHA-256
 *   (`staff_sessions_token_hash_unique`), cascading with their member.
 */
export function membersStaffSessionsMigration(dialect: SchemaDialect): Migration {
  const text = columnDataType(dialect, 'text');
  const keyText = (column: string) => columnDataType(dialect, 'text', column);
  const userId =
    dialect === 'mysql' ? sql`varchar(255) character set utf8mb4 collate utf8mb4_bin` : keyText('user_id');
  const bigint = columnDataType(dialect, 'bigint');
  const strict = <T extends CreateTableBuilder<string, string>>(table: T): T =>
    (dialect === 'sqlite' ? table.modifyEnd(sql`strict`) : table) as T;
  return {
    async up(db) {
      await strict(
        (db.schema.createTable('members') as CreateTableBuilder<string, string>)
          .addColumn('id', keyText('id'), (col) => col.notNull().primaryKey())
          .addColumn('organization_id', keyText('organization_id'), (col) => col.notNull())
          .addColumn('user_id', userId, (col) => col.notNull())
          .addColumn('email', text, (col) => col.notNull())
          .addColumn('email_lower', keyText('email_lower'), (col) => col.notNull())
          .addColumn('role', keyText('role'), (col) => col.notNull())
          .addColumn('password_hash', text)
          .addColumn('invited_at', bigint)
          .addColumn('accepted_at', bigint)
          .addColumn('created_at', bigint, (col) => col.notNull())
          .addColumn('updated_at', bigint, (col) => col.notNull())
          .addForeignKeyConstraint('members_organization_id_fkey', ['organization_id'], 'organizations', [
            'id',
          ]),
      ).execute();
      await sql`create unique index members_email_unique on members (organization_id, email_lower)`.execute(
        db,
      );
      await sql`create unique index members_user_id_unique on members (organization_id, user_id)`.execute(db);
      for (const name of ['member_tokens', 'staff_sessions'] as const) {
        await strict(
          (db.schema.createTable(name) as CreateTableBuilder<string, string>)
            .addColumn('id', keyText('id'), (col) => col.notNull().primaryKey())
            .addColumn('organization_id', keyText('organization_id'), (col) => col.notNull())
            .addColumn('member_id', keyText('member_id'), (col) => col.notNull())
            .addColumn('token_hash', keyText('token_hash'), (col) => col.notNull())
            .addColumn('expires_at', bigint, (col) => col.notNull())
            .addColumn('created_at', bigint, (col) => col.notNull())
            .addForeignKeyConstraint(
              `${name}_member_id_fkey`,
              ['member_id'],
              'members',
              ['id'],
              (constraint) => constraint.onDelete('cascade'),
            ),
        ).execute();
        await sql.raw(`create unique index ${name}_token_hash_unique on ${name} (token_hash)`).execute(db);
        await sql.raw(`create index ${name}_member_idx on ${name} (member_id)`).execute(db);
      }
    },
    async down(db) {
      await db.schema.dropTable('staff_sessions').execute();
      await db.schema.dropTable('member_tokens').execute();
      await db.schema.dropTable('members').execute();
    },
  };
}
