// What other features may use of visitors (people without an account, where BROWSE_SIGNED_OUT
// lets them browse, decision 028): the button that asks them to sign in first, and the car page's
// address that finishes what they started. Nothing here imports auth's index: the home page's
// heart loads auth, and must not load this with it.
export {
  CAR_ACTION_PARAM,
  carActionPath,
  SignInFirstButton,
  type CarAction,
} from './components/sign-in-first';
