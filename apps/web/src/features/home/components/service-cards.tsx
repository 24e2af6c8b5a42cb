import { Icon } from '../../../components/ui/icons';

interface Service {
  title: string;
  text: string;
  /** The icon's SVG path. */
  icon: string;
}

const services: Service[] = [
  {
    title: 'Top Buy & Sell Car',
    text: 'List your car in minutes. Buyers see the original price beside the asking one.',
    icon: 'M3 12V4.5A1.5 1.5 0 0 1 4.5 3H12l9 9-9 9Zm4.5-4.5h.01',
  },
  {
    title: 'Easy Payment',
    text: 'Book a car and pay by card in one step, at the price you booked it for, with a receipt.',
    icon: 'M5 5h14a2.5 2.5 0 0 1 2.5 2.5v9A2.5 2.5 0 0 1 19 19H5a2.5 2.5 0 0 1-2.5-2.5v-9A2.5 2.5 0 0 1 5 5ZM2.5 9.5h19M6.5 15h4',
  },
  {
    title: 'Easy To Use',
    text: 'No clutter. It works on a phone or a laptop, with a keyboard or a screen reader.',
    icon: 'M9 2.5h6A2.5 2.5 0 0 1 17.5 5v14a2.5 2.5 0 0 1-2.5 2.5H9A2.5 2.5 0 0 1 6.5 19V5A2.5 2.5 0 0 1 9 2.5Zm1.5 16h3m-4-8 2 2 3.5-3.5',
  },
];

export function ServiceCards() {
  return (
    <section
      aria-labelledby="services-title"
      className="mx-auto max-w-6xl px-4 pt-16 sm:px-6 sm:pt-20"
    >
      <div className="max-w-2xl">
        <p className="section-eyebrow">Why CarMarket</p>
        <h2 id="services-title" className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
          Buying a used car should be simple
        </h2>
      </div>
      <ul className="mt-8 grid gap-5 md:grid-cols-3">
        {services.map((service) => (
          <li
            key={service.title}
            className="rounded-box border border-base-300 bg-base-100 p-6 card-shadow"
          >
            <span className="flex size-12 items-center justify-center rounded-lg bg-primary-soft text-primary">
              <Icon width={28} height={28}>
                <path d={service.icon} />
              </Icon>
            </span>
            <h3 className="mt-4 text-xl font-bold">{service.title}</h3>
            <p className="mt-2 leading-7 text-muted">{service.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
