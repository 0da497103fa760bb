/**
 * Staff sign-in for the back office (decisions §23; docs/back-office.md, docs/security.md): a
 * session in a cookie is a second way, beside a secret API key, to be an admin caller. The
 * pipeline asks {@link authenticateStaff} for every `/v1/admin/…` request that carries no
 * `Authorization` header; a `member` is refused an admin-only route (its `staffRole`, core's
 * `requiredRoleOf`) with 403 `forbidden` right there, before the body is read, and core checks
 * the role again when the operation runs.
 *
 * - The cookie `cartwright_session`: `HttpOnly`, `SameSite=Strict`, `Path=/`, `Secure` when the
 *   request came over https, `Max-Age` 12 h; the server keeps only the token's SHA-256, and signing
 *   out deletes it.
 * - CSRF: besides `SameSite=Strict`, every request that changes state (any method but GET/HEAD)
 *   and is authenticated by the cookie (or by the `authorize` hook), and every sign-in, sign-out
 *   and invitation acceptance, must carry the header `Cartwright-Csrf` (any non-empty value; the
 *   console sends `1`) — else 403 `forbidden`. A cross-site page cannot set a custom header without
 *   a CORS preflight, and admin routes allow no browser origin unless configured.
 * - The mode: the `Cartwright-Mode` header, `live` (default) or `test`; anything else → 400
 *   `parameter_invalid` (`param: Cartwright-Mode`). The store is the organization's (the
 *   installation's single store).
 * - An embedding host with its own login passes `authorize`: it replaces the cookie (which is then
 *   never read) and maps each admin request to a staff identity and role, or refuses it (null →
 *   401 `unauthenticated`).
 */
import { CommerceError, type Mode, type OpenedStaffSession, type StaffActor } from '@cartwright/core';
import { assertStaffMay } from '@cartwright/core/operations';
import { StaffAcceptInviteSchema, StaffSessionSchema, StaffSignInSchema } from '@cartwright/core/schemas';
import { z } from 'zod';
import type { AuthContext, RouteEngine } from './engine-port';
import type { HeaderReader } from './raw-http';
import { type AnyRoute, defineRoute, withHeaders } from './route';

/** The session cookie's name. */
export const STAFF_SESSION_COOKIE = 'cartwright_session';
/** The header a cookie-authenticated state-changing request must carry (CSRF). */
export const CSRF_HEADER = 'Cartwright-Csrf';
/** The header that picks the mode of a staff request (`live` default, or `test`). */
export const MODE_HEADER = 'Cartwright-Mode';
/** A session lasts 12 hours (decisions §23). */
const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/** What the `authorize` hook sees of a request. */
export interface StaffAuthorizeRequest {
  method: string;
  /** The path as requested (percent-encoded, without the query). */
  path: string;
  headers: HeaderReader;
}

/** Who the host says is calling: an identity of its own (or a member id), a role, and optionally the mode. */
export interface StaffIdentity {
  /** The host's identity for the person (e.g. a member's `user_id`); idempotency keys are scoped to it. */
  member_id: string;
  role: 'admin' | 'member';
  /** Default: the `Cartwright-Mode` header, else `live`. */
  mode?: Mode;
  /** The person's e-mail, shown by the console when no member has this identity. */
  email?: string;
}

/**
 * The embedding host's own staff login (decisions §23): maps an admin request without an API key
 * to a staff identity and role, or refuses it (null or undefined → 401 `unauthenticated`; a thrown
 * `CommerceError` is answered as it is).
 */
export type StaffAuthorize = (
  request: StaffAuthorizeRequest,
) => StaffIdentity | null | undefined | Promise<StaffIdentity | null | undefined>;

/** The value of one cookie of the `Cookie` header, or null. */
export function readCookie(headers: HeaderReader, name: string): string | null {
  const header = headers.get('cookie');
  if (header === null) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The `Set-Cookie` value of a new session (or, with a null token, of signing out). */
export function sessionCookie(token: string | null, secure: boolean): string {
  const value = token ?? '';
  const maxAge = token === null ? 0 : SESSION_MAX_AGE_SECONDS;
  return `${STAFF_SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** Refuses a state-changing staff request without the CSRF header: 403 `forbidden`. */
export function assertCsrfHeader(method: string, headers: HeaderReader): void {
  if (SAFE_METHODS.has(method)) return;
  if ((headers.get(CSRF_HEADER.toLowerCase())?.trim() ?? '') !== '') return;
  throw new CommerceError(
    'forbidden',
    `A request signed in with a staff session must send the ${CSRF_HEADER} header (any value) to change anything.`,
  );
}

/** The mode of a staff request: `Cartwright-Mode`, default `live`. */
export function staffModeOf(headers: HeaderReader): Mode {
  const value = headers.get(MODE_HEADER.toLowerCase())?.trim() ?? '';
  if (value === '' || value === 'live') return 'live';
  if (value === 'test') return 'test';
  throw new CommerceError('parameter_invalid', `${MODE_HEADER} must be live or test.`, {
    param: MODE_HEADER,
  });
}

/**
 * The admin caller of a request that sent no `Authorization` header: the host's `authorize` hook
 * when it has one, else the staff session cookie. Neither → 401 `unauthenticated`.
 */
export async function authenticateStaff(
  engine: RouteEngine,
  request: StaffAuthorizeRequest,
  authorize: StaffAuthorize | undefined,
  requiredRole: 'admin' | 'member' = 'member',
): Promise<AuthContext> {
  let staff: StaffActor;
  let mode: Mode;
  if (authorize !== undefined) {
    const identity = await authorize(request);
    if (identity === null || identity === undefined) {
      throw new CommerceError('unauthenticated', 'This request is not signed in.');
    }
    if (identity.role !== 'admin' && identity.role !== 'member') {
      throw new TypeError(`authorize returned an unknown role: ${String(identity.role)}`);
    }
    staff = { member_id: identity.member_id, role: identity.role };
    mode = identity.mode ?? staffModeOf(request.headers);
  } else {
    const token = readCookie(request.headers, STAFF_SESSION_COOKIE);
    if (token === null || token === '') {
      throw new CommerceError(
        'unauthenticated',
        'No API key provided: send Authorization: Bearer <API key>, or sign in (POST /v1/admin/session).',
      );
    }
    const principal = await engine.staff.authenticate(token);
    staff = { member_id: principal.member_id, role: principal.role };
    mode = staffModeOf(request.headers);
  }
  assertCsrfHeader(request.method, request.headers);
  // The role before anything else of the request is looked at (core checks it again in `execute`).
  assertStaffMay(staff, { name: `${request.method} ${request.path}`, role: requiredRole });
  const scope = await engine.scopeFor(mode);
  return { key_id: `staff:${staff.member_id}`, store_id: scope.store_id, mode, key_type: 'secret', staff };
}

const tags = ['Staff sign-in'] as const;
const SuccessSchema = z.object({ success: z.literal(true) }).meta({ id: 'StaffSignOut' });

/** The answer of a sign-in: the session's wire object, with its cookie. */
function withCookie(opened: OpenedStaffSession, secure: boolean) {
  return withHeaders(opened.session, { 'Set-Cookie': sessionCookie(opened.token, secure) });
}

/** The origin of a sign-in attempt, for the failure limits. */
function originOf(ctx: { clientAddress: string | undefined; observeRateLimit: (d: never) => void }) {
  return { address: ctx.clientAddress, observe: ctx.observeRateLimit as (d: unknown) => void };
}

/** `/v1/admin/session…`: sign in, who am I, sign out, accept an invitation. */
export const staffSessionRoutes: readonly AnyRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/v1/admin/session',
    auth: 'none',
    customerToken: 'none',
    body: StaffSignInSchema,
    response: StaffSessionSchema,
    summary: 'Sign in as staff',
    description: `Sets the \`${STAFF_SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Strict, Secure over https, 12 h). Requires the \`${CSRF_HEADER}\` header. A wrong password, an unknown e-mail or a member who has not accepted the invitation → 401 \`invalid_credentials\`; failed attempts are limited per address and per e-mail (429 \`rate_limited\`).`,
    tags,
    errors: ['invalid_credentials', 'forbidden', 'rate_limited'],
    handler: async (ctx) => {
      assertCsrfHeader('POST', ctx.headers);
      const scope = await ctx.engine.scopeFor('live');
      const opened = await ctx.engine.staff.signIn(scope, ctx.body, originOf(ctx));
      return withCookie(opened, ctx.secure === true);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/admin/session',
    auth: 'none',
    customerToken: 'none',
    response: StaffSessionSchema,
    summary: 'The signed-in member',
    description: `The member of the \`${STAFF_SESSION_COOKIE}\` cookie and when the session ends; none, expired or signed out → 401 \`unauthenticated\`. When the host's \`authorize\` hook signs staff in, the member it names (the one whose \`id\` or \`user_id\` it gives, with the hook's role; else one described from the hook's identity) and \`expires_at: null\`.`,
    tags,
    errors: ['unauthenticated'],
    handler: async (ctx) => {
      if (ctx.staffAuthorize !== undefined) {
        const request = { method: 'GET', path: '/v1/admin/session', headers: ctx.headers };
        const identity = await ctx.staffAuthorize(request);
        const auth = await authenticateStaff(ctx.engine, request, () => identity);
        const staff = auth.staff as StaffActor;
        return ctx.engine.staff.hostSession(
          { store_id: auth.store_id, mode: auth.mode },
          { member_id: staff.member_id, role: staff.role, email: identity?.email },
        );
      }
      const principal = await ctx.engine.staff.authenticate(
        readCookie(ctx.headers, STAFF_SESSION_COOKIE) ?? '',
      );
      return { member: principal.member, expires_at: principal.expires_at };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/admin/session',
    auth: 'none',
    customerToken: 'none',
    response: SuccessSchema,
    summary: 'Sign out',
    description: `Deletes the session (every process refuses it at once) and clears the cookie. Requires the \`${CSRF_HEADER}\` header.`,
    tags,
    errors: ['unauthenticated', 'forbidden'],
    handler: async (ctx) => {
      assertCsrfHeader('DELETE', ctx.headers);
      const principal = await ctx.engine.staff.authenticate(
        readCookie(ctx.headers, STAFF_SESSION_COOKIE) ?? '',
      );
      const body = await ctx.engine.staff.signOut(principal.session_id);
      return withHeaders(body, { 'Set-Cookie': sessionCookie(null, ctx.secure === true) });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/admin/session/accept-invite',
    auth: 'none',
    customerToken: 'none',
    body: StaffAcceptInviteSchema,
    response: StaffSessionSchema,
    summary: 'Accept an invitation',
    description: `Claims the invitation token of \`member.invited\` (single use, 7 days), sets the member's password (8–128 characters) and \`accepted_at\`, ends the member's earlier sessions and signs in (sets the cookie). An unknown, used or expired token → 422 \`invite_token_invalid\`. Requires the \`${CSRF_HEADER}\` header.`,
    tags,
    errors: ['invite_token_invalid', 'forbidden', 'rate_limited'],
    handler: async (ctx) => {
      assertCsrfHeader('POST', ctx.headers);
      const scope = await ctx.engine.scopeFor('live');
      const opened = await ctx.engine.staff.acceptInvite(scope, ctx.body, originOf(ctx));
      return withCookie(opened, ctx.secure === true);
    },
  }),
];
