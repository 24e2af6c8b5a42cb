// What other parts may use of the account feature: the banner that asks an unconfirmed person
// to open the link mailed to them (the dashboard shows it on every page).
export { VerifyEmailBanner } from './components/verify-email-banner';
