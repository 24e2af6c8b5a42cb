// What other parts may use of the account feature: the banner that asks an unconfirmed person
// to open the link mailed to them (the dashboard shows it on every page), and its "Send the link
// again" button, for pages that say what waits on the address (saved cars and searches).
export { VerifyEmailBanner } from './components/verify-email-banner';
export { SendLinkAgain } from './components/send-link-again';
