/**
 * The address typed into one sign-in form, carried to the other when the person switches between
 * the password and the emailed link (a ref: typing re-renders nothing).
 */
export interface EmailCarry {
  current: string;
}
