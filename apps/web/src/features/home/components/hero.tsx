import { Link } from 'react-router';

import { CheckIcon } from '../../../components/ui/icons';
import { HeroArt } from './hero-art';

const promises = [
  'Asking and original price on every car',
  'Pay securely by card',
  'Verified sellers',
];

export function Hero() {
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden bg-base-200">
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 sm:px-6 sm:py-20 lg:grid-cols-[1.05fr_1fr] lg:py-24">
        <div>
          <p className="section-eyebrow">Used cars, bought and sold in minutes</p>
          <h1
            id="hero-title"
            className="mt-3 text-4xl leading-tight font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl"
          >
            The easy, fast way to buy and sell <span className="text-primary">used cars</span>
          </h1>
          <p className="mt-5 max-w-xl text-lg leading-8 text-muted">
            Used cars from sellers near you, every price up front. Book the one you want and pay by
            card.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <a href="#categories" className="button button-primary button-lg">
              Browse cars
            </a>
            <Link to="/dashboard" className="button button-outline button-lg">
              Sell your car
            </Link>
          </div>
          <ul className="mt-8 grid gap-2 text-muted sm:grid-cols-3 sm:gap-4">
            {promises.map((promise) => (
              <li key={promise} className="flex items-start gap-2 text-sm leading-6">
                <CheckIcon className="size-5 shrink-0 text-secondary" />
                <span>{promise}</span>
              </li>
            ))}
          </ul>
        </div>
        <HeroArt />
      </div>
    </section>
  );
}
