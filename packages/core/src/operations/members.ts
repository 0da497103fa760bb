import { MemberCreateSchema, MemberListSchema, MemberSchema, MemberUpdateSchema } from '../members/schemas';
import { DeletedResponseSchema, IdPathSchema, ListQuerySchema } from '../shared/schemas/common';
import { defineOperation } from './operation';

const tags = ['Organization members'] as const;

/**
 * The organization's members (decisions §23), shared by both modes. Admin-only (the `members`
 * group, `requiredRoleOf`): a staff `member` gets 403 `forbidden`.
 */
export const membersOperations = [
  defineOperation({
    name: 'members.list',
    http: { method: 'GET', path: '/v1/admin/organization/members' },
    auth: 'secret',
    customerToken: 'none',
    inputIn: 'query',
    input: ListQuerySchema,
    response: MemberListSchema,
    summary: 'List the members of the organization',
    description: 'Newest first. Members belong to the organization: both modes see the same list.',
    tags,
    run: async (s, c) => s.members.list(c.scope, c.input),
  }),
  defineOperation({
    name: 'members.create',
    http: { method: 'POST', path: '/v1/admin/organization/members' },
    auth: 'secret',
    customerToken: 'none',
    input: MemberCreateSchema,
    response: MemberSchema,
    summary: 'Invite a member',
    description:
      'Creates the member (`role` default `member`; `user_id` default the member\'s `id`) and emits `member.invited` with `data: { member_id, email, role, token, expires_at }`: a single-use token, valid 7 days, that sets the member\'s password and `accepted_at` (`POST /v1/admin/session/accept-invite`). That event carries a secret: it is delivered only to webhooks that name it (never through `["*"]`) and to in-process listeners. A taken e-mail → 409 `duplicate_email`; a taken `user_id` → 409 `duplicate_user_id`.',
    tags,
    errors: ['duplicate_email', 'duplicate_user_id', 'forbidden'],
    run: async (s, c) => s.members.create(c.scope, c.input),
  }),
  defineOperation({
    name: 'members.update',
    http: { method: 'PATCH', path: '/v1/admin/organization/members/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    input: MemberUpdateSchema,
    response: MemberSchema,
    summary: "Change a member's role",
    description: 'The last admin cannot be demoted (409 `last_admin`).',
    tags,
    errors: ['not_found', 'last_admin', 'forbidden'],
    run: async (s, c) => s.members.update(c.scope, c.params.id, c.input),
  }),
  defineOperation({
    name: 'members.delete',
    http: { method: 'DELETE', path: '/v1/admin/organization/members/:id' },
    auth: 'secret',
    customerToken: 'none',
    params: IdPathSchema,
    response: DeletedResponseSchema,
    summary: 'Remove a member',
    description:
      "The last admin cannot be removed (409 `last_admin`). The member's staff sessions end at once.",
    tags,
    errors: ['not_found', 'last_admin', 'forbidden'],
    run: async (s, c) => s.members.delete(c.scope, c.params.id),
  }),
] as const;
