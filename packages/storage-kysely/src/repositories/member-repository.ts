import type {
  MemberRecord,
  MemberRepository,
  MemberTokenRecord,
  MemberTokenRepository,
  Millis,
  Patch,
  StaffRole,
  StaffSessionRecord,
  StaffSessionRepository,
} from '@cartwright/core/storage';
import type { Selectable } from 'kysely';
import { insertRows, insertTemplate } from '../query/insert-template';
import type { QueryRunner } from '../query/query-runner';
import { type Slots, template } from '../query/template';
import { updateArgs, updateTemplate } from '../query/update-template';
import type { MembersTable } from '../schema/database';

const insertMember = insertTemplate('members');
const listMembers = template(({ db }, p: Slots<'organization_id'>) =>
  db
    .selectFrom('members')
    .selectAll()
    .where('organization_id', '=', p.organization_id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc'),
);
const getMember = template(({ db }, p: Slots<'organization_id' | 'id'>) =>
  db
    .selectFrom('members')
    .selectAll()
    .where('organization_id', '=', p.organization_id)
    .where('id', '=', p.id),
);
const memberByEmail = template(({ db }, p: Slots<'organization_id' | 'email'>) =>
  db
    .selectFrom('members')
    .selectAll()
    .where('organization_id', '=', p.organization_id)
    .where('email_lower', '=', p.email),
);
const updateMember = updateTemplate('members', { scoped: false });
const deleteMember = template(({ db }, p: Slots<'organization_id' | 'id'>) =>
  db.deleteFrom('members').where('organization_id', '=', p.organization_id).where('id', '=', p.id),
);
const countAdmins = template(({ db }, p: Slots<'organization_id'>) =>
  db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('organization_id', '=', p.organization_id)
    .where('role', '=', 'admin'),
);
/** PostgreSQL and MariaDB: the organization's row lock (SQLite serialises writers already). */
const lockOrganization = template(({ db }, p: Slots<'id'>) =>
  db.selectFrom('organizations').select('id').where('id', '=', p.id).forUpdate(),
);

function decodeMember(row: Selectable<MembersTable>): MemberRecord {
  return {
    id: row.id,
    organization_id: row.organization_id,
    user_id: row.user_id,
    email: row.email,
    role: row.role as StaffRole,
    password_hash: row.password_hash,
    invited_at: row.invited_at === null ? null : Number(row.invited_at),
    accepted_at: row.accepted_at === null ? null : Number(row.accepted_at),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

/** Organization members (decisions §23): a global table keyed by the organization. */
export class KyselyMemberRepository implements MemberRepository {
  constructor(private readonly q: QueryRunner) {}

  async list(organization_id: string): Promise<MemberRecord[]> {
    return (await this.q.rows(listMembers, { organization_id })).map(decodeMember);
  }

  async get(organization_id: string, key: string | { email: string }): Promise<MemberRecord | null> {
    const row =
      typeof key === 'string'
        ? await this.q.first(getMember, { organization_id, id: key })
        : await this.q.first(memberByEmail, { organization_id, email: key.email.toLowerCase() });
    return row ? decodeMember(row) : null;
  }

  async insert(record: MemberRecord): Promise<void> {
    await insertRows(this.q, insertMember, 'members', [
      { ...record, email_lower: record.email.toLowerCase() },
    ]);
  }

  async update(
    organization_id: string,
    id: string,
    patch: Patch<MemberRecord, 'role' | 'password_hash' | 'accepted_at'>,
  ): Promise<MemberRecord | null> {
    const current = await this.get(organization_id, id);
    if (!current) return null;
    const { shape, args } = updateArgs(
      {
        role: patch.role,
        password_hash: patch.password_hash,
        accepted_at: patch.accepted_at,
        updated_at: patch.updated_at,
      },
      { id },
    );
    const row = await this.q.first(updateMember, args, shape);
    return row ? decodeMember(row) : null;
  }

  async delete(organization_id: string, id: string): Promise<boolean> {
    // The tokens and sessions go with it (foreign keys, cascading).
    return (await this.q.affected(deleteMember, { organization_id, id })) > 0;
  }

  async countAdmins(organization_id: string): Promise<number> {
    const row = await this.q.first(countAdmins, { organization_id });
    return Number(row?.n ?? 0);
  }

  async lock(organization_id: string): Promise<void> {
    if (!this.q.caps.forUpdate) return;
    await this.q.first(lockOrganization, { id: organization_id });
  }
}

type TokenTable = 'member_tokens' | 'staff_sessions';
type TokenRecord = MemberTokenRecord & StaffSessionRecord;

function decodeToken(row: TokenRecord): TokenRecord {
  return {
    id: row.id,
    organization_id: row.organization_id,
    member_id: row.member_id,
    token_hash: row.token_hash,
    expires_at: Number(row.expires_at),
    created_at: Number(row.created_at),
  };
}

/** The statements of a table of hashed tokens (invitations, sessions). */
function tokenStatements(table: TokenTable) {
  return {
    insert: insertTemplate(table),
    findByHash: template(({ db }, p: Slots<'token_hash'>) =>
      db.selectFrom(table).selectAll().where('token_hash', '=', p.token_hash),
    ),
    /** The claim: one `DELETE … RETURNING`; exactly one concurrent claim returns the row. */
    consume: template(({ db }, p: Slots<'token_hash'>) =>
      db.deleteFrom(table).where('token_hash', '=', p.token_hash).returningAll(),
    ),
    deleteOne: template(({ db }, p: Slots<'id'>) => db.deleteFrom(table).where('id', '=', p.id)),
    deleteForMember: template(({ db }, p: Slots<'member_id'>) =>
      db.deleteFrom(table).where('member_id', '=', p.member_id),
    ),
    deleteExpired: template(({ db }, p: Slots<'now'>) =>
      db.deleteFrom(table).where('expires_at', '<=', p.now),
    ),
  };
}

const tokens = tokenStatements('member_tokens');
const sessions = tokenStatements('staff_sessions');

/** Invitation tokens (single use, stored hashed). */
export class KyselyMemberTokenRepository implements MemberTokenRepository {
  constructor(private readonly q: QueryRunner) {}

  async insert(record: MemberTokenRecord): Promise<void> {
    await insertRows(this.q, tokens.insert, 'member_tokens', [record]);
  }

  async consume(token_hash: string): Promise<MemberTokenRecord | null> {
    const row = await this.q.first(tokens.consume, { token_hash });
    return row ? decodeToken(row as TokenRecord) : null;
  }

  async deleteForMember(member_id: string): Promise<void> {
    await this.q.affected(tokens.deleteForMember, { member_id });
  }
}

/** Staff sessions (stored hashed; signing out deletes). */
export class KyselyStaffSessionRepository implements StaffSessionRepository {
  constructor(private readonly q: QueryRunner) {}

  async insert(record: StaffSessionRecord): Promise<void> {
    await insertRows(this.q, sessions.insert, 'staff_sessions', [record]);
  }

  async findByHash(token_hash: string): Promise<StaffSessionRecord | null> {
    const row = await this.q.first(sessions.findByHash, { token_hash });
    return row ? decodeToken(row as TokenRecord) : null;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.q.affected(sessions.deleteOne, { id })) > 0;
  }

  async deleteForMember(member_id: string): Promise<void> {
    await this.q.affected(sessions.deleteForMember, { member_id });
  }

  async deleteExpired(now: Millis): Promise<number> {
    return this.q.affected(sessions.deleteExpired, { now });
  }
}
