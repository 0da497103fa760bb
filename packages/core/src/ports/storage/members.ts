import type { Patch } from './conventions';
import type { MemberRecord, MemberTokenRecord, StaffSessionRecord } from './records';
import type { Millis } from './scope';

// The organization's members (decisions §23), their invitation tokens and staff sessions. Global
// tables keyed by the organization (members are shared by both modes).

export interface MemberRepository {
  /** Every member of the organization, newest first (`created_at desc`, then `id desc`). */
  list(organization_id: string): Promise<MemberRecord[]>;
  /** The member by id, or by `{ email }` (case-insensitive). */
  get(organization_id: string, key: string | { email: string }): Promise<MemberRecord | null>;
  /**
   * An e-mail the organization has (case-insensitive) → `duplicate_email` (409, param `email`);
   * a `user_id` it has → `duplicate_user_id` (409, param `user_id`).
   */
  insert(record: MemberRecord): Promise<void>;
  update(
    organization_id: string,
    id: string,
    patch: Patch<MemberRecord, 'role' | 'password_hash' | 'accepted_at'>,
  ): Promise<MemberRecord | null>;
  /** Deletes the member with its tokens and sessions; false if there was none. */
  delete(organization_id: string, id: string): Promise<boolean>;
  /** How many members have the role `admin`. */
  countAdmins(organization_id: string): Promise<number>;
  /**
   * Serialises the member changes of one organization: until the transaction ends, another
   * transaction's `lock` of the same organization waits (PostgreSQL and MariaDB: the
   * organization's row lock; SQLite: writers are serialised already).
   */
  lock(organization_id: string): Promise<void>;
}

export interface MemberTokenRepository {
  insert(record: MemberTokenRecord): Promise<void>;
  /** The claim: deletes the token with this hash and returns it; exactly one concurrent claim wins. */
  consume(token_hash: string): Promise<MemberTokenRecord | null>;
  deleteForMember(member_id: string): Promise<void>;
}

export interface StaffSessionRepository {
  insert(record: StaffSessionRecord): Promise<void>;
  findByHash(token_hash: string): Promise<StaffSessionRecord | null>;
  /** Deletes one session; false if there was none. */
  delete(id: string): Promise<boolean>;
  deleteForMember(member_id: string): Promise<void>;
  /** Deletes the sessions expired at `now` (housekeeping); how many. */
  deleteExpired(now: Millis): Promise<number>;
}
