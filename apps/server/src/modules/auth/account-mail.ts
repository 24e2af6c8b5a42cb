import type { MailMessage } from '../../adapters/mail.ts';

/*
 * The mail about an account: its links, and notices of changes to it. Each says what happened,
 * what the link does and for how long, and what to do if it was not the reader.
 */

type Person = { name: string; email: string };

const lines = (...parts: string[]) => parts.join('\n');

export function resetPasswordMail(person: Person, url: string): MailMessage {
  return {
    to: person.email,
    subject: 'Reset your CarMarket password',
    text: lines(
      `Hello ${person.name},`,
      '',
      'Someone (we hope you) asked to reset the password of your CarMarket account.',
      'Open this link within an hour to choose a new password:',
      '',
      url,
      '',
      'If you did not ask for this, ignore this mail; your password stays as it is.',
    ),
  };
}

/** After a change of password: the "this wasn't me" link is a reset link (good for an hour). */
export function passwordChangedNotice(
  person: Person,
  resetUrl: string,
  forgotUrl: string,
): MailMessage {
  return {
    to: person.email,
    subject: 'Your CarMarket password was changed',
    text: lines(
      `Hello ${person.name},`,
      '',
      'The password of your CarMarket account was just changed, and every other device signed in to it was signed out.',
      '',
      'If that was you, there is nothing more to do.',
      '',
      "This wasn't me: open this link within an hour to choose a new password and sign everyone else out:",
      '',
      resetUrl,
      '',
      `After an hour, ask for a new link at ${forgotUrl}`,
    ),
  };
}

export function verifyEmailMail(person: Person, url: string): MailMessage {
  return {
    to: person.email,
    subject: 'Confirm your CarMarket email address',
    text: lines(
      `Hello ${person.name},`,
      '',
      'Please confirm that this address is yours by opening this link (it works for a day):',
      '',
      url,
      '',
      'If you did not make a CarMarket account, ignore this mail.',
    ),
  };
}

/** To the new address: the link that makes the change. */
export function emailChangeConfirmation(
  person: { name: string; newEmail: string },
  url: string,
): MailMessage {
  return {
    to: person.newEmail,
    subject: 'Confirm your new CarMarket email address',
    text: lines(
      `Hello ${person.name},`,
      '',
      'Someone (we hope you) asked to use this address for a CarMarket account. Open this link (it works for a day) to make the change:',
      '',
      url,
      '',
      'Until then the account keeps its old address. If you did not ask for this, ignore this mail.',
    ),
  };
}

/** To the old address: a notice that nothing has changed yet, and what to do if it was not you. */
export function emailChangeNotice(
  person: Person,
  newEmail: string,
  forgotUrl: string,
): MailMessage {
  return {
    to: person.email,
    subject: 'A change of your CarMarket email address was asked for',
    text: lines(
      `Hello ${person.name},`,
      '',
      `Someone asked to change the email address of your CarMarket account to ${newEmail}.`,
      'Nothing changes until the link we sent to that address is opened; until then you sign in with this address as before.',
      '',
      `If this was not you, change your password now (${forgotUrl}): whoever asked knows it, or is signed in to your account.`,
    ),
  };
}

export function signInLinkMail(person: Person, url: string, minutes: number): MailMessage {
  return {
    to: person.email,
    subject: 'Your CarMarket sign-in link',
    text: lines(
      `Hello ${person.name},`,
      '',
      `Open this link within ${minutes} minutes to sign in to CarMarket. It works once:`,
      '',
      url,
      '',
      'If you did not ask for it, ignore this mail; nobody can use it without reading your mail.',
    ),
  };
}

/** For an account without a password (Google only): the link that confirms deleting it. */
export function deleteAccountLinkMail(person: Person, url: string, minutes: number): MailMessage {
  return {
    to: person.email,
    subject: 'Confirm deleting your CarMarket account',
    text: lines(
      `Hello ${person.name},`,
      '',
      `You asked to delete your CarMarket account. Open this link within ${minutes} minutes, in the browser where you are signed in, and confirm once more on the page it opens:`,
      '',
      url,
      '',
      'If you did not ask for this, ignore this mail; your account stays as it is.',
    ),
  };
}

/**
 * To an address that has an account, when someone signed up with it (decision 044): the sign-up
 * answered as a new one does, so only the address's owner learns that it has an account.
 */
export function signUpAttemptMail(
  person: Person,
  urls: { signIn: string; forgot: string },
): MailMessage {
  return {
    to: person.email,
    subject: 'Someone tried to sign up with your address',
    text: lines(
      `Hello ${person.name},`,
      '',
      'Someone (perhaps you) tried to make a new CarMarket account with this email address, which already has one. No new account was made, and nothing changed in yours.',
      '',
      `If it was you, sign in instead: ${urls.signIn}`,
      `Forgot your password? Choose a new one: ${urls.forgot}`,
      '',
      'If it was not you, you need do nothing.',
    ),
  };
}

/**
 * To the address of a deleted account it still holds, when someone signed up with it (decision
 * 044): when it was deleted and from when the address is free, which only its owner should learn.
 */
export function deletedAccountSignUpMail(email: string, held: string): MailMessage {
  return {
    to: email,
    subject: 'Someone tried to sign up with your address',
    text: lines(
      'Hello,',
      '',
      'Someone (perhaps you) tried to make a new CarMarket account with this email address. No account was made.',
      '',
      held,
      '',
      'If it was not you, you need do nothing.',
    ),
  };
}
