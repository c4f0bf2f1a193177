import { z } from 'zod';
import { emailAddress, requiredText } from '../api/fields';
import { AUTH_MESSAGES } from '../auth/messages';
import { newPasswordSchema } from '../auth/schemas';

/**
 * Wording of the team screens and their errors, written once for the forms and the server: catalogue keys
 * (packages/shared/messages/<language>/team.json; decision 0027).
 */
export const TEAM_MESSAGES = {
  emailRequired: AUTH_MESSAGES.emailRequired,
  emailInvalid: AUTH_MESSAGES.emailInvalid,
  roleRequired: AUTH_MESSAGES.roleRequired,
  roleTooLong: 'team.roleTooLong',
  departmentTooLong: 'team.departmentTooLong',
  fullNameTooLong: 'team.fullNameTooLong',
  nothingToChange: 'team.nothingToChange',
  alreadyMember: 'team.alreadyMember',
  suspended: 'team.suspended',
  alreadyInvited: 'team.alreadyInvited',
  lastAdmin: 'team.lastAdmin',
  manageForbidden: 'team.manageForbidden',
  organizationAdminNeedsMember: 'team.organizationAdminNeedsMember',
  organizationAdminIsOwner: 'team.organizationAdminIsOwner',
  invitationSent: 'team.invitationSent',
  invitationResent: 'team.invitationResent',
  invitationRevoked: 'team.invitationRevoked',
  inviteFailed: 'team.inviteFailed',
  /** `{ email }`: the invited address. */
  invitationNotEmailed: 'team.invitationNotEmailed',
  /** The invite dialog when the server sends no e-mail (MAIL_DISABLED=true). */
  invitationsNotEmailed: 'team.invitationsNotEmailed',
  memberUpdated: 'team.memberUpdated',
  memberRemoved: 'team.memberRemoved',
  invitationInvalid: 'team.invitationInvalid',
  invitationExpired: 'team.invitationExpired',
  invitationAccepted: 'team.invitationAccepted',
  invitationWrongUser: 'team.invitationWrongUser',
  invitationAccountExists: 'team.invitationAccountExists',
  unknownName: 'team.unknownName',
  defaultRole: 'team.defaultRole',
  /** The role a workspace's or organisation's creator starts with (a key: said in each reader's language). */
  creatorRole: 'team.roleAdmin',
} as const;

export const INVITATION_DAYS = 7;

const email = emailAddress({ required: TEAM_MESSAGES.emailRequired, invalid: TEAM_MESSAGES.emailInvalid });
const role = requiredText(TEAM_MESSAGES.roleRequired, 80, TEAM_MESSAGES.roleTooLong);

const department = z.string().trim().max(80, TEAM_MESSAGES.departmentTooLong);

export const memberAccessSchema = z.enum(['admin', 'member']);
export type MemberAccess = z.infer<typeof memberAccessSchema>;

export const inviteMemberSchema = z.strictObject({
  email,
  role,
  department: department.optional(),
  /** 'Admin access' checkbox: access admin, else member (PRODUCT-DECISIONS 3). */
  admin: z.boolean().default(false),
});
export type InviteMemberInput = z.input<typeof inviteMemberSchema>;

export const updateMemberSchema = z
  .strictObject({
    role: role.optional(),
    access: memberAccessSchema.optional(),
    /** Empty string clears the department. */
    department: department.optional(),
  })
  .refine((v) => v.role !== undefined || v.access !== undefined || v.department !== undefined, {
    message: TEAM_MESSAGES.nothingToChange,
  });
export type UpdateMemberInput = z.input<typeof updateMemberSchema>;

export const memberSchema = z.object({
  id: z.string(),
  userId: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string(),
  role: z.string().nullable(),
  access: memberAccessSchema,
  status: z.enum(['active', 'pending']),
  department: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  /** Their role in the workspace's organisation: its owner, an organisation admin, or neither (null). */
  organizationRole: z.enum(['owner', 'admin']).nullable(),
  /** Pending invitations only. */
  invitation: z
    .object({
      sentAt: z.string(),
      expiresAt: z.string(),
      expired: z.boolean(),
      /** Delivery of the latest invitation e-mail: 'pending', 'sent' or 'failed', with the last error. */
      delivery: z.enum(['pending', 'sent', 'failed']).nullable(),
      deliveryError: z.string().nullable(),
    })
    .nullable(),
});
export type Member = z.infer<typeof memberSchema>;

export const membersResponseSchema = z.object({
  workspace: z.object({ id: z.string(), name: z.string() }),
  canManage: z.boolean(),
  /** The caller owns the workspace's organisation: Team Management offers the 'Organisation admin' choice. */
  canAppointOrganizationAdmins: z.boolean(),
  members: z.array(memberSchema),
});
export type MembersResponse = z.infer<typeof membersResponseSchema>;

export const memberResponseSchema = z.object({ member: memberSchema });

/** The owner's 'Organisation admin' choice for one member. */
export const organizationAdminSchema = z.strictObject({ organizationAdmin: z.boolean() });

export const departmentsResponseSchema = z.object({ departments: z.array(z.string()) });

/** What the public accept page may know about an invitation (the token is the secret). */
export const invitationInfoSchema = z.object({
  state: z.enum(['valid', 'expired', 'accepted']),
  email: z.string(),
  workspaceName: z.string(),
  invitedBy: z.string().nullable(),
  role: z.string().nullable(),
  accountExists: z.boolean(),
});
export type InvitationInfo = z.infer<typeof invitationInfoSchema>;

export const acceptSignupSchema = z
  .strictObject({
    fullName: requiredText(AUTH_MESSAGES.fullNameRequired, 120, TEAM_MESSAGES.fullNameTooLong),
    password: newPasswordSchema,
    confirmPassword: z.string({ error: AUTH_MESSAGES.passwordsDoNotMatch }),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: AUTH_MESSAGES.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type AcceptSignupInput = z.input<typeof acceptSignupSchema>;

export const acceptResponseSchema = z.object({ workspaceId: z.string(), redirectTo: z.string() });

/** The table's display rules (spec sections 2 and 8): the name or role, else a catalogue key to say instead. */
export const displayName = (name: string | null | undefined) => name?.trim() || TEAM_MESSAGES.unknownName;
export const displayRole = (role: string | null | undefined) => role?.trim() || TEAM_MESSAGES.defaultRole;

/** Case-insensitive search over name, e-mail, role and department. */
export function matchesSearch(member: Pick<Member, 'name' | 'email' | 'role' | 'department'>, query: string) {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [member.name, member.email, member.role, member.department].some((v) =>
    v?.toLowerCase().includes(q),
  );
}
