import { type AttemptOrigin, createAttemptLimits } from '../customers/attempt-limits';
import type { MemberRecord, Repositories, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError, errors } from '../shared/errors';
import { parseInput } from '../shared/schemas/parse';
import { read, type Work, write } from '../shared/unit-of-work';
import { iso, isoOrNull } from '../shared/wire-format';
import { assertAdminRemains, type StaffActor, type StaffRole } from './roles';
import {
  type Member,
  type MemberCreate,
  MemberCreateSchema,
  type MemberList,
  type MemberUpdate,
  type StaffAcceptInvite,
  StaffAcceptInviteSchema,
  type StaffSessionWire,
  type StaffSignIn,
  StaffSignInSchema,
} from './schemas';

/** An invitation token is valid for 7 days (decisions §23). */
export const MEMBER_INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** A staff session is valid for 12 hours (decisions §23). */
export const STAFF_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Random bytes per invitation token and per session token: 256 bits. */
const TOKEN_BYTES = 32;
const INVITE_TOKEN_PATTERN = /^mit_[A-Za-z0-9_-]{16,200}$/;
const SESSION_TOKEN_PATTERN = /^sst_[A-Za-z0-9_-]{16,200}$/;

/** A new member and the invitation token that sets its password (shown once). */
export interface MemberInvitation {
  member: Member;
  token: string;
  expires_at: string;
}

/** A signed-in member and the session token for the cookie (shown once). */
export interface OpenedStaffSession {
  session: StaffSessionWire;
  token: string;
}

/** What a staff session token resolves to. */
export interface StaffPrincipal extends StaffActor {
  session_id: string;
  organization_id: string;
  member: Member;
  /** When the session ends. */
  expires_at: string;
}

export function memberToWire(record: MemberRecord): Member {
  return {
    id: record.id,
    user_id: record.user_id,
    email: record.email,
    role: record.role,
    invited_at: isoOrNull(record.invited_at),
    accepted_at: isoOrNull(record.accepted_at),
    created_at: iso(record.created_at),
    updated_at: iso(record.updated_at),
  };
}

const invalidCredentials = () => new CommerceError('invalid_credentials', 'Invalid e-mail or password');
const inviteTokenInvalid = () =>
  new CommerceError('invite_token_invalid', 'This invitation token is unknown, used or expired', {
    param: 'token',
  });
const sessionInvalid = () =>
  new CommerceError('unauthenticated', 'Your staff session has expired or was signed out: sign in again.');

/**
 * Organization members and staff sign-in (decisions §23). Members belong to the organization of
 * the scope's store (shared by both modes). Every change of the members runs under the
 * organization's lock (`members.lock`), so the last-admin rule holds under concurrency: two
 * demotions at once never leave zero admins.
 *
 * Tokens: an invitation (`mit_…`, valid 7 days, single use) reaches the host through the secret
 * event `member.invited`, as a password reset token does (delivered only to webhooks that name
 * it); a session (`sst_…`, valid 12 h) is the console's cookie. Both are stored only as their
 * SHA-256. Passwords are hashed as customers' (scrypt, {@link ServiceContext.passwords}); failed
 * sign-ins and invalid invitation tokens are limited per address and per e-mail as customers'
 * (`createAttemptLimits`, in a window of their own: `staff:<e-mail>`).
 */
export function createMemberService(ctx: ServiceContext) {
  const { passwords } = ctx;
  const limits = createAttemptLimits(ctx.rateLimits);

  async function organizationIdOf(tx: Repositories, scope: Scope): Promise<string> {
    const store = await tx.stores.get(scope.store_id);
    if (!store) throw new CommerceError('not_found', 'No such store');
    return store.organization_id;
  }

  async function requireMember(tx: Repositories, organization_id: string, id: string): Promise<MemberRecord> {
    const member = await tx.members.get(organization_id, id);
    if (!member) throw errors.notFound('member', id);
    return member;
  }

  /** Opens a session for the member in the caller's transaction. */
  async function openSession(work: Work, member: MemberRecord): Promise<OpenedStaffSession> {
    const token = `sst_${ctx.crypto.randomToken(TOKEN_BYTES)}`;
    const expires_at = work.now + STAFF_SESSION_TTL_MS;
    await work.tx.staffSessions.insert({
      id: ctx.ids.next('sst'),
      organization_id: member.organization_id,
      member_id: member.id,
      token_hash: await ctx.crypto.sha256Hex(token),
      expires_at,
      created_at: work.now,
    });
    return { token, session: { member: memberToWire(member), expires_at: iso(expires_at) } };
  }

  function refuseEmailAsPassword(email: string, password: string): void {
    if (password.toLowerCase() === email.toLowerCase()) {
      throw new CommerceError('parameter_invalid', 'The password may not be the e-mail address', {
        param: 'password',
      });
    }
  }

  async function invite(scope: Scope, input: MemberCreate): Promise<MemberInvitation> {
    const token = `mit_${ctx.crypto.randomToken(TOKEN_BYTES)}`;
    const token_hash = await ctx.crypto.sha256Hex(token);
    let expires = 0;
    const member = await write(ctx, scope, async ({ tx, now, emit }) => {
      const organization_id = await organizationIdOf(tx, scope);
      await tx.members.lock(organization_id);
      const id = ctx.ids.next('mem');
      const record: MemberRecord = {
        id,
        organization_id,
        user_id: input.user_id ?? id,
        email: input.email,
        role: input.role,
        password_hash: null,
        invited_at: now,
        accepted_at: null,
        created_at: now,
        updated_at: now,
      };
      await tx.members.insert(record);
      expires = now + MEMBER_INVITE_TTL_MS;
      await tx.memberTokens.insert({
        id: ctx.ids.next('mit'),
        organization_id,
        member_id: id,
        token_hash,
        expires_at: expires,
        created_at: now,
      });
      emit(scope, 'member.invited', {
        member_id: id,
        email: record.email,
        role: record.role,
        token,
        expires_at: iso(expires),
      });
      return memberToWire(record);
    });
    return { member, token, expires_at: iso(expires) };
  }

  async function signInChecked(scope: Scope, input: StaffSignIn): Promise<OpenedStaffSession> {
    const member = await read(ctx, async (tx) =>
      tx.members.get(await organizationIdOf(tx, scope), { email: input.email }),
    );
    const ok =
      member?.password_hash != null
        ? await passwords.verify(input.password, member.password_hash)
        : await passwords.verifyNothing(input.password);
    if (!ok || !member) throw invalidCredentials();
    const rehash = passwords.needsRehash(member.password_hash as string)
      ? await passwords.hash(input.password)
      : null;
    return write(ctx, scope, async (work) => {
      const current = await work.tx.members.get(member.organization_id, member.id);
      // The password changed (or the member went) since it was checked.
      if (!current || current.password_hash !== member.password_hash) throw invalidCredentials();
      if (rehash !== null)
        await work.tx.members.update(member.organization_id, member.id, {
          password_hash: rehash,
          updated_at: work.now,
        });
      return openSession(work, current);
    });
  }

  async function acceptChecked(scope: Scope, input: StaffAcceptInvite): Promise<OpenedStaffSession> {
    if (!INVITE_TOKEN_PATTERN.test(input.token)) throw inviteTokenInvalid();
    const token_hash = await ctx.crypto.sha256Hex(input.token);
    const password_hash = await passwords.hash(input.password);
    return write(ctx, scope, async (work) => {
      const { tx, now } = work;
      const claimed = await tx.memberTokens.consume(token_hash);
      if (!claimed || claimed.expires_at <= now) throw inviteTokenInvalid();
      const member = await tx.members.get(claimed.organization_id, claimed.member_id);
      if (!member) throw inviteTokenInvalid();
      refuseEmailAsPassword(member.email, input.password);
      const updated = await tx.members.update(member.organization_id, member.id, {
        password_hash,
        accepted_at: member.accepted_at ?? now,
        updated_at: now,
      });
      if (!updated) throw inviteTokenInvalid();
      // A new password ends every earlier session of the member.
      await tx.staffSessions.deleteForMember(member.id);
      return openSession(work, updated);
    });
  }

  return {
    /** `GET /v1/admin/organization/members`: newest first, keyset pages by `starting_after`. */
    async list(
      scope: Scope,
      page: { limit: number; starting_after?: string | undefined },
    ): Promise<MemberList> {
      const all = await read(ctx, async (tx) => tx.members.list(await organizationIdOf(tx, scope)));
      let start = 0;
      if (page.starting_after !== undefined) {
        const at = all.findIndex((m) => m.id === page.starting_after);
        if (at < 0)
          throw new CommerceError(
            'parameter_invalid',
            'starting_after is not a member of this organization',
            {
              param: 'starting_after',
            },
          );
        start = at + 1;
      }
      const data = all.slice(start, start + page.limit);
      const has_more = start + page.limit < all.length;
      return {
        data: data.map(memberToWire),
        total_count: all.length,
        has_more,
        next_cursor: has_more ? (data[data.length - 1]?.id ?? null) : null,
      };
    },

    /**
     * `POST /v1/admin/organization/members`: a member with no password yet, `invited_at` now, and
     * a single-use invitation token valid 7 days, emitted in `member.invited`. A taken e-mail →
     * 409 `duplicate_email`; a taken `user_id` → 409 `duplicate_user_id`.
     */
    async create(scope: Scope, input: MemberCreate): Promise<Member> {
      return (await invite(scope, input)).member;
    },

    /**
     * As {@link create} (the body validated here: 400 `parameter_*`), answering the invitation
     * token too (the CLI's `members create` prints it as a link).
     */
    invite(scope: Scope, body: unknown): Promise<MemberInvitation> {
      return invite(scope, parseInput(MemberCreateSchema, body ?? {}));
    },

    /** `PATCH …/members/{id}`: a new role; demoting the last admin → 409 `last_admin`. */
    async update(scope: Scope, id: string, input: MemberUpdate): Promise<Member> {
      return write(ctx, scope, async ({ tx, now }) => {
        const organization_id = await organizationIdOf(tx, scope);
        await tx.members.lock(organization_id);
        const member = await requireMember(tx, organization_id, id);
        if (member.role === input.role) return memberToWire(member);
        assertAdminRemains(member, input, await tx.members.countAdmins(organization_id));
        const updated = await tx.members.update(organization_id, id, { role: input.role, updated_at: now });
        if (!updated) throw errors.notFound('member', id);
        return memberToWire(updated);
      });
    },

    /** `DELETE …/members/{id}`: removing the last admin → 409 `last_admin`. Its sessions end. */
    async delete(scope: Scope, id: string): Promise<{ id: string; deleted: true }> {
      return write(ctx, scope, async ({ tx }) => {
        const organization_id = await organizationIdOf(tx, scope);
        await tx.members.lock(organization_id);
        const member = await requireMember(tx, organization_id, id);
        assertAdminRemains(member, 'delete', await tx.members.countAdmins(organization_id));
        if (!(await tx.members.delete(organization_id, id))) throw errors.notFound('member', id);
        return { id, deleted: true as const };
      });
    },

    /**
     * Staff sign-in: `{ email, password }` (validated here: 400 `parameter_*`) → a 12-hour session. An unknown e-mail, a member without
     * a password and a wrong password all → 401 `invalid_credentials` after the same work; with an
     * `origin`, counted as failures of the address and of the e-mail (429 once spent).
     */
    async signIn(scope: Scope, body: unknown, origin?: AttemptOrigin): Promise<OpenedStaffSession> {
      const input: StaffSignIn = parseInput(StaffSignInSchema, body ?? {});
      return limits.attempt(
        origin,
        scope,
        `staff:${input.email}`,
        (error) => error.code === 'invalid_credentials',
        () => signInChecked(scope, input),
      );
    },

    /**
     * Accepting an invitation, `{ token, password }` (validated here; 8–128 characters): claims the token (unknown, used or expired → 422
     * `invite_token_invalid`, a failure of the address), sets the password and `accepted_at`, ends
     * the member's earlier sessions and signs the member in.
     */
    async acceptInvite(scope: Scope, body: unknown, origin?: AttemptOrigin): Promise<OpenedStaffSession> {
      const input: StaffAcceptInvite = parseInput(StaffAcceptInviteSchema, body ?? {});
      return limits.attempt(
        origin,
        scope,
        undefined,
        (error) => error.code === 'invite_token_invalid',
        () => acceptChecked(scope, input),
      );
    },

    /**
     * Who the embedding host's own login (the HTTP handler's `authorize` hook) says is calling, as
     * `GET /v1/admin/session` answers it: the organization's member whose `id` or `user_id` is the
     * identity's (the role is the host's: it decides), else a member described from the identity
     * alone (its id as `id` and `user_id`, the e-mail the host gave, timestamps of now). The host
     * ends its own sessions: `expires_at` is null.
     */
    async hostSession(
      scope: Scope,
      identity: { member_id: string; role: StaffRole; email?: string | undefined },
    ): Promise<StaffSessionWire> {
      const found = await read(ctx, async (tx) => {
        const organization_id = await organizationIdOf(tx, scope);
        return (
          (await tx.members.get(organization_id, identity.member_id)) ??
          (await tx.members.list(organization_id)).find((m) => m.user_id === identity.member_id) ??
          null
        );
      });
      if (found !== null)
        return { member: { ...memberToWire(found), role: identity.role }, expires_at: null };
      const now = iso(ctx.clock.now());
      return {
        member: {
          id: identity.member_id,
          user_id: identity.member_id,
          email: identity.email ?? '',
          role: identity.role,
          invited_at: null,
          accepted_at: null,
          created_at: now,
          updated_at: now,
        },
        expires_at: null,
      };
    },

    /** The member of a session token; unknown, expired or signed out → 401 `unauthenticated`. */
    async authenticate(token: string): Promise<StaffPrincipal> {
      if (!SESSION_TOKEN_PATTERN.test(token)) throw sessionInvalid();
      const token_hash = await ctx.crypto.sha256Hex(token);
      const now = ctx.clock.now();
      const found = await read(ctx, async (tx) => {
        const session = await tx.staffSessions.findByHash(token_hash);
        if (!session || session.expires_at <= now) return null;
        const member = await tx.members.get(session.organization_id, session.member_id);
        return member && { session, member };
      });
      if (!found) throw sessionInvalid();
      return {
        session_id: found.session.id,
        organization_id: found.member.organization_id,
        member_id: found.member.id,
        role: found.member.role,
        member: memberToWire(found.member),
        expires_at: iso(found.session.expires_at),
      };
    },

    /** Signing out: the session is deleted (every process refuses it from the commit on). */
    async signOut(session_id: string): Promise<{ success: true }> {
      await ctx.storage.transaction((tx) => tx.staffSessions.delete(session_id));
      return { success: true };
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
