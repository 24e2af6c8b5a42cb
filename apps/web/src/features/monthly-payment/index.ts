// What the app's routes use of the monthly payment estimate: the car page's calculator.
export { LazyPaymentCalculator } from './components/lazy-payment-calculator';
