import { z } from 'zod';
import { SIGNUP_ROLES } from '../enums.ts';
import { isCommonPassword } from '../common-passwords.ts';
import { textSchema } from '../text.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const EmailSchema = z
  .string()
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  .pipe(z.email({ message: 'Please enter a valid email address' }));

/**
 * A web address or a domain: a scheme (`http://`), a dot between a letter or digit and two
 * letters (`www.foo.com`, `evil.example`, `foo.ru`; also the dots a browser reads as one), or an
 * IP address. A dot followed by a space, as names are written ("J. R. Smith", "St. John"), is
 * none.
 */
const WEB_ADDRESS = /:\/\/|[\p{L}\p{N}][.\u3002\uff0e\uff61]\p{L}{2}|\d+\.\d+\.\d+\.\d+/u;

/** A person's name, shown to others (messages, mail to sellers): never a link to somewhere. */
export const NameSchema = textSchema('Name', { max: 80 }).refine(
  (name) => !WEB_ADDRESS.test(name),
  'Name cannot contain a web address; after a dot, leave a space, as in "J. R. Smith"',
);

/** Password rules for new passwords (sign-up and reset), checked on both sides. */
export const NewPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .refine((password) => !isCommonPassword(password), {
    message: 'This password is too common; please choose another',
  });

export const SignupRoleSchema = z.enum(SIGNUP_ROLES, {
  message: 'Please choose Seller or Buyer',
});

/** The register form. `role` is sent afterwards with `POST /api/user`. */
export const RegisterFormSchema = z.object({
  name: NameSchema,
  role: SignupRoleSchema,
  email: EmailSchema,
  password: NewPasswordSchema,
});
export type RegisterFormInput = z.infer<typeof RegisterFormSchema>;

export const SignInFormSchema = z.object({
  email: EmailSchema,
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH),
});
export type SignInFormInput = z.infer<typeof SignInFormSchema>;

export const ForgotPasswordFormSchema = z.object({ email: EmailSchema });

export const ResetPasswordFormSchema = z
  .object({ password: NewPasswordSchema, confirm: z.string() })
  .refine((form) => form.password === form.confirm, {
    message: 'The passwords do not match',
    path: ['confirm'],
  });

/** `POST /api/user`: sets the role of the signed-in user, once. */
export const SetRoleSchema = z.object({
  name: NameSchema.optional(),
  email: EmailSchema,
  role: SignupRoleSchema,
});
export type SetRoleInput = z.infer<typeof SetRoleSchema>;

/** `POST /api/google/user`: a first Google sign-in becomes a Buyer. */
export const GoogleUserSchema = z.object({ name: NameSchema.optional(), email: EmailSchema });

export const EmailParamsSchema = z.object({ email: EmailSchema });
export const EmailQuerySchema = z.object({ email: EmailSchema });

export const AcknowledgedSchema = z.object({ acknowledged: z.literal(true) });

export const IsAdminSchema = z.object({ isAdmin: z.boolean() });
export const IsBuyerSchema = z.object({ isBuyer: z.boolean() });
export const IsSellerSchema = z.object({ isSeller: z.boolean() });

/**
 * `GET /api/sign-in-options`: the ways of signing in this server offers besides a password,
 * whether booking and listing wait for a confirmed email address (REQUIRE_VERIFIED_EMAIL), how
 * many days a deleted account keeps its address (what deleting an account says), and whether
 * the search, category and car pages are open to visitors without an account (BROWSE_SIGNED_OUT).
 */
export const SignInOptionsSchema = z.object({
  google: z.boolean(),
  emailLink: z.boolean(),
  requireVerifiedEmail: z.boolean(),
  deletedAccountHoldDays: z.number().int(),
  browseSignedOut: z.boolean(),
});
export type SignInOptions = z.infer<typeof SignInOptionsSchema>;

export const AccessTokenSchema = z.object({
  accessToken: z.string(),
  /** ISO time the token stops working. */
  expiresAt: z.string(),
});
export type AccessToken = z.infer<typeof AccessTokenSchema>;
