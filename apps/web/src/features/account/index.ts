// What other parts may use of the account feature: the banner that asks an unconfirmed person
// to open the link mailed to them, with its "Send the link again" button (the dashboard shows it
// on every page).
export { VerifyEmailBanner } from './components/verify-email-banner';
