import { z } from 'zod';
import { ROLES } from '../enums.ts';
import { IdSchema } from './common.ts';
import {
  EmailSchema,
  NameSchema,
  NewPasswordSchema,
  PASSWORD_MAX_LENGTH,
  SignupRoleSchema,
} from './account.ts';
import { PhoneSchema } from './booking.ts';

/*
 * My account (`/dashboard/settings`): the bodies of better-auth's own endpoints under /api/auth,
 * as our auth route checks them before better-auth sees them, and the forms that send them.
 */

/**
 * A same-site path to come back to after a link from a mail ("/dashboard/settings"). Browsers
 * read a backslash as a slash and fold dot segments (`%2e` too), so `/.\/evil.example` or
 * `/.//evil.example` would leave the site as `//evil.example`: no backslash, no empty segment and
 * no dot segment in the path.
 */
export const ReturnPathSchema = z
  .string()
  .max(500)
  .regex(/^\/(?![/\\])[^\s\\]*$/, 'Must be a path on this site')
  .refine((path) => {
    const segments = path.split(/[?#]/, 1)[0]!.replace(/%2e/gi, '.');
    return !segments.includes('//') && !/(^|\/)\.\.?(\/|$)/.test(segments);
  }, 'Must be a path on this site');

const CurrentPasswordSchema = z
  .string()
  .min(1, 'Enter your current password')
  .max(PASSWORD_MAX_LENGTH, 'That is not your current password');

/** An uploaded photo's address on this site (`/media/<key>`); the server checks it is yours. */
export const MediaUrlSchema = z
  .string()
  .max(300)
  .regex(/^\/media\/[A-Za-z0-9._-]+$/, 'Must be a photo you uploaded');

/**
 * `POST /api/auth/update-user`: the profile. Only these fields; a phone or photo sent as null is
 * removed. The email changes through `/change-email`, roles through `POST /api/user/roles`.
 */
export const UpdateProfileSchema = z
  .object({
    name: NameSchema.optional(),
    phone: PhoneSchema.nullable().optional(),
    image: MediaUrlSchema.nullable().optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'Nothing to change');
export type UpdateProfileInput = z.infer<typeof UpdateProfileSchema>;

/** The profile form: an empty phone means none. */
export const ProfileFormSchema = z.object({
  name: NameSchema,
  phone: z.union([z.literal(''), PhoneSchema]),
});
export type ProfileFormInput = z.infer<typeof ProfileFormSchema>;

/**
 * `POST /api/auth/change-password`. Every other session ends whatever `revokeOtherSessions`
 * says: the server always asks better-auth to.
 */
export const ChangePasswordSchema = z.object({
  currentPassword: CurrentPasswordSchema,
  newPassword: NewPasswordSchema,
  revokeOtherSessions: z.boolean().optional(),
});

export const ChangePasswordFormSchema = z
  .object({
    currentPassword: CurrentPasswordSchema,
    newPassword: NewPasswordSchema,
    confirm: z.string(),
  })
  .refine((form) => form.newPassword === form.confirm, {
    message: 'The passwords do not match',
    path: ['confirm'],
  })
  .refine((form) => form.newPassword !== form.currentPassword, {
    message: 'Choose a password you do not use now',
    path: ['newPassword'],
  });
export type ChangePasswordFormInput = z.infer<typeof ChangePasswordFormSchema>;

/**
 * `POST /api/auth/change-email`: a link goes to the new address; nothing changes until opened.
 * An account with a password gives it (`currentPassword`), as for changing the password: a
 * session left open on a shared computer must not be enough to move the account elsewhere.
 */
export const ChangeEmailSchema = z.object({
  newEmail: EmailSchema,
  currentPassword: CurrentPasswordSchema.optional(),
  callbackURL: ReturnPathSchema.optional(),
});
/** The change-of-address form; `currentPassword` is asked only of an account that has one. */
export const ChangeEmailFormSchema = z.object({
  newEmail: EmailSchema,
  currentPassword: z.string().max(PASSWORD_MAX_LENGTH),
});
export type ChangeEmailFormInput = z.infer<typeof ChangeEmailFormSchema>;

/** `POST /api/auth/send-verification-email`: the signed-in person's own address, again. */
export const SendVerificationSchema = z.object({
  email: EmailSchema,
  callbackURL: ReturnPathSchema.optional(),
});

/** `POST /api/auth/sign-in/magic-link`: mails a sign-in link, if the address has an account. */
export const MagicLinkSchema = z.object({
  email: EmailSchema,
  callbackURL: ReturnPathSchema.optional(),
  errorCallbackURL: ReturnPathSchema.optional(),
});
export const EmailLinkFormSchema = z.object({ email: EmailSchema });
export type EmailLinkFormInput = z.infer<typeof EmailLinkFormSchema>;

/**
 * `POST /api/auth/delete-user`: an account with a password gives it; one without (Google only)
 * first sends an empty body, which mails a link, then sends the link's `token`.
 */
export const DeleteAccountSchema = z
  .object({
    password: z.string().min(1, 'Enter your password').max(PASSWORD_MAX_LENGTH).optional(),
    token: z
      .string()
      .max(200)
      .regex(/^[a-z0-9]+$/, 'This link is not valid')
      .optional(),
  })
  .strict();
export const DeleteAccountFormSchema = z.object({
  password: z.string().min(1, 'Enter your password').max(PASSWORD_MAX_LENGTH),
});
export type DeleteAccountFormInput = z.infer<typeof DeleteAccountFormSchema>;

/** `POST /api/auth/revoke-session`: one of your sessions, by the id `/list-sessions` gave. */
export const RevokeSessionSchema = z.object({ id: IdSchema }).strict();

/** `GET /api/auth/list-sessions`: where you are signed in; no session's token leaves the server. */
export const DeviceSessionSchema = z.object({
  id: z.uuid(),
  /** The session of the browser asking. */
  current: z.boolean(),
  /** "Firefox", "Chrome", ... or null when the browser did not say. */
  browser: z.string().nullable(),
  /** "Windows", "iPhone", ... or null. */
  os: z.string().nullable(),
  ipAddress: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
});
export type DeviceSession = z.infer<typeof DeviceSessionSchema>;
export const DeviceSessionListSchema = z.array(DeviceSessionSchema);

/**
 * `GET /api/auth/list-accounts`: the ways the signed-in person signs in: `credential` (a
 * password) and `google`. Settings ask for the password only of an account that has one.
 */
export const SignInMethodSchema = z.object({ provider: z.string(), createdAt: z.string() });
export const SignInMethodListSchema = z.array(SignInMethodSchema);
export type SignInMethod = z.infer<typeof SignInMethodSchema>;

/** `POST /api/user/roles`: adds Seller (or Buyer) to the signed-in account's roles. */
export const AddRoleSchema = z.object({ role: SignupRoleSchema });
export type AddRoleInput = z.infer<typeof AddRoleSchema>;
export const RolesSchema = z.object({
  acknowledged: z.literal(true),
  roles: z.array(z.enum(ROLES)),
});
