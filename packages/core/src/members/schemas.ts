import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PasswordSchema } from '../customers/schemas';
import {
  DateTimeSchema,
  EmailSchema,
  IdentifierTextSchema,
  listOf,
  type Named,
} from '../shared/schemas/common';

/** The staff roles (decisions §23): `admin` manages everything, `member` the shop's daily work. */
export const STAFF_ROLES = ['admin', 'member'] as const;
export const StaffRoleSchema = z.enum(STAFF_ROLES);

// ---------------------------------------------------------------- responses

/** A member of the organization (decisions §23), as the SDK's `OrganizationMember`. */
export interface MemberSchema extends Named<typeof memberSchema> {}
const memberSchema = z
  .object({
    id: z.string(),
    user_id: z
      .string()
      .meta({ description: "The host's identity for this person; the member's `id` unless given." }),
    email: z.string(),
    role: StaffRoleSchema,
    invited_at: DateTimeSchema.nullable(),
    accepted_at: DateTimeSchema.nullable().meta({
      description: 'When the invitation was accepted (a password set); null until then.',
    }),
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
  })
  .meta({ id: 'OrganizationMember' });
export const MemberSchema: MemberSchema = memberSchema;
export type Member = z.infer<typeof MemberSchema>;

export const MemberListSchema = listOf(MemberSchema);
export type MemberList = z.infer<typeof MemberListSchema>;

/** A signed-in member: what staff sign-in and accepting an invitation answer. */
export interface StaffSessionSchema extends Named<typeof staffSessionSchema> {}
const staffSessionSchema = z
  .object({
    member: MemberSchema,
    expires_at: DateTimeSchema.nullable().meta({
      description:
        "When the session ends; null when the embedding host's own login (its `authorize` hook) signed the caller in.",
    }),
  })
  .meta({ id: 'StaffSession' });
export const StaffSessionSchema: StaffSessionSchema = staffSessionSchema;
export type StaffSessionWire = z.infer<typeof StaffSessionSchema>;

// ---------------------------------------------------------------- requests

/** `POST /v1/admin/organization/members`. */
export interface MemberCreateSchema extends Named<typeof memberCreateSchema> {}
const memberCreateSchema = z
  .strictObject({
    email: EmailSchema,
    user_id: IdentifierTextSchema.optional(),
    role: StaffRoleSchema.default('member'),
  })
  .meta({ id: 'MemberCreate' });
export const MemberCreateSchema: MemberCreateSchema = memberCreateSchema;
export type MemberCreate = z.output<typeof MemberCreateSchema>;

/** `PATCH /v1/admin/organization/members/{id}`. */
export interface MemberUpdateSchema extends Named<typeof memberUpdateSchema> {}
const memberUpdateSchema = z.strictObject({ role: StaffRoleSchema }).meta({ id: 'MemberUpdate' });
export const MemberUpdateSchema: MemberUpdateSchema = memberUpdateSchema;
export type MemberUpdate = z.output<typeof MemberUpdateSchema>;

/** Staff sign-in: e-mail and password. */
export interface StaffSignInSchema extends Named<typeof staffSignInSchema> {}
const staffSignInSchema = z
  .strictObject({ email: EmailSchema, password: z.string().min(1).max(PASSWORD_MAX_LENGTH) })
  .meta({ id: 'StaffSignIn' });
export const StaffSignInSchema: StaffSignInSchema = staffSignInSchema;
export type StaffSignIn = z.output<typeof StaffSignInSchema>;

/** Accepting an invitation: its token and the member's new password (8–128 characters). */
export interface StaffAcceptInviteSchema extends Named<typeof staffAcceptInviteSchema> {}
const staffAcceptInviteSchema = z
  .strictObject({ token: z.string().min(1).max(255), password: PasswordSchema })
  .meta({ id: 'StaffAcceptInvite' });
export const StaffAcceptInviteSchema: StaffAcceptInviteSchema = staffAcceptInviteSchema;
export type StaffAcceptInvite = z.output<typeof StaffAcceptInviteSchema>;
