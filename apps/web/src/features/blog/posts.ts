/**
 * The blog's posts, written by the CarMarket team. Text may use `code` and **bold**; everything
 * else is plain text, so a post cannot inject markup.
 */
export type Block =
  | { type: 'paragraph'; text: string }
  | { type: 'heading'; id: string; text: string }
  | { type: 'subheading'; text: string }
  | { type: 'list'; ordered?: boolean; items: string[] }
  | { type: 'code'; label: string; code: string }
  | { type: 'callout'; text: string }
  | { type: 'table'; caption: string; head: string[]; rows: string[][] };

export type PostKind = 'qa' | 'guide';

export interface BlogPost {
  slug: string;
  kind: PostKind;
  title: string;
  /** One or two sentences for the list and the page's meta description. */
  summary: string;
  /** ISO date (YYYY-MM-DD). */
  publishedOn: string;
  author: string;
  body: Block[];
}

const qa: BlogPost = {
  slug: 'front-end-questions-answered',
  kind: 'qa',
  title: 'Q&A: four front-end questions, answered',
  summary:
    'The questions we get most from people who read our code: the kinds of state in a web app, prototypal inheritance, why we write unit tests, and how React, Angular and Vue compare.',
  publishedOn: '2026-11-18',
  author: 'The CarMarket engineering team',
  body: [
    {
      type: 'paragraph',
      text: 'CarMarket is open source, so people read our code and ask us why it looks the way it does. These are the four questions we hear most often, with the answers we give new contributors.',
    },
    {
      type: 'heading',
      id: 'kinds-of-state',
      text: 'What kinds of state does a React app have, and where should each live?',
    },
    {
      type: 'paragraph',
      text: 'State is any data that can change while the page is open. Putting each piece in the right place matters more than which library holds it. We sort state into four kinds.',
    },
    {
      type: 'list',
      items: [
        '**Local state** belongs to one component and nobody else needs it: whether the mobile menu is open, the text typed into a field before it is submitted, which photo of a car is shown. It lives in `useState` or `useReducer` inside that component, and it disappears when the component does.',
        '**Global state** is client-side data that many unrelated parts of the page read: the colour theme, or a basket of cars being compared. It lives in React context or a small store. Keep it small; most data that looks global is really server or URL state.',
        '**Server state** is data the server owns and the browser only borrows: the list of categories, a car’s price, your bookings. It can be out of date the moment it arrives, so it needs caching, deduplication, retries and refetching. We use TanStack Query for it: unused data is kept for five minutes and a failed request is retried three times, waiting a little longer each time.',
        '**URL state** is anything that should survive a reload, a bookmark or a shared link: which category you are looking at, the search filters and page number, and the `?next=` address the login page returns you to. It lives in the path and the query string, and the router reads it.',
      ],
    },
    {
      type: 'paragraph',
      text: 'A good rule of thumb: if it came from the server, it is server state; if someone would want to share it or press Back to undo it, it belongs in the URL; if only one component cares, keep it local. Whatever is left is global, and there is usually very little of it.',
    },
    {
      type: 'heading',
      id: 'prototypal-inheritance',
      text: 'How does prototypal inheritance work in JavaScript?',
    },
    {
      type: 'paragraph',
      text: 'Every JavaScript object has a hidden link to another object, its prototype. When you read a property the object does not have itself, JavaScript follows that link and looks there, then at the prototype’s prototype, and so on until it finds the property or reaches `null`. That chain of links is the prototype chain, and it is how objects share behaviour without copying it.',
    },
    {
      type: 'code',
      label: 'An object that borrows a method from its prototype',
      code: `const vehicle = {
  describe() {
    return \`\${this.year} \${this.make} \${this.model}\`;
  },
};

const van = Object.create(vehicle); // van's prototype is vehicle
van.make = 'Toyota';
van.model = 'HiAce';
van.year = 2019;

van.describe(); // "2019 Toyota HiAce": found on vehicle, but \`this\` is van
Object.hasOwn(van, 'describe'); // false
Object.getPrototypeOf(van) === vehicle; // true`,
    },
    {
      type: 'paragraph',
      text: 'Writing a property always writes it on the object itself, never on the prototype. So giving `van` its own `describe` method shadows the shared one without changing any other vehicle. The flip side is a classic bug: a mutable value such as an array placed on a prototype is shared by every object that inherits it, and pushing into it from one object changes it for all of them.',
    },
    {
      type: 'paragraph',
      text: 'The `class` syntax does not replace this model; it is a tidier way to write it. Methods declared in a class go on its `prototype` object, and `extends` links one prototype to the other:',
    },
    {
      type: 'code',
      label: 'The same mechanism, written with classes',
      code: `class Listing {
  constructor(name, askingCents) {
    this.name = name;
    this.askingCents = askingCents;
  }
  label() {
    return this.name;
  }
}

class ElectricListing extends Listing {
  label() {
    return \`\${super.label()} (electric)\`;
  }
}

const leaf = new ElectricListing('Nissan Leaf', 1_450_000);
Object.getPrototypeOf(ElectricListing.prototype) === Listing.prototype; // true`,
    },
    {
      type: 'paragraph',
      text: 'Two habits follow from this. Never add methods to built-in prototypes such as `Array.prototype`, because every array in the page, including those in other people’s libraries, would see them. And prefer composing small functions over deep inheritance chains: a chain of three or four prototypes is hard to follow, whatever syntax created it.',
    },
    {
      type: 'heading',
      id: 'unit-tests',
      text: 'What is a unit test, and why should we write them?',
    },
    {
      type: 'paragraph',
      text: 'A unit test is a small, automated check of one unit of code, such as a function, a module or a component, on its own. It gives the unit an input and asserts on the result. Unit tests run in milliseconds, need no network or browser, and give the same answer every time, so you can run hundreds of them on every change.',
    },
    {
      type: 'code',
      label: 'A unit test for the function that formats prices (Vitest)',
      code: `import { describe, expect, it } from 'vitest';
import { formatMoney } from '@carmarket/shared';

describe('formatMoney', () => {
  it('shows whole amounts without cents', () => {
    expect(formatMoney(3_355_000_00, 'USD')).toBe('$3,355,000');
  });

  it('keeps the cents when there are some', () => {
    expect(formatMoney(1_999_95, 'USD')).toBe('$1,999.95');
  });
});`,
    },
    { type: 'paragraph', text: 'Why we write them:' },
    {
      type: 'list',
      items: [
        '**They catch regressions.** The version of this marketplace we started from had no tests, and a price such as "3,355,000" reached the payment code as text. A test with one real price in it would have caught that on the first day.',
        '**They make change safe.** With tests in place you can refactor, upgrade a library or fix a bug and know within seconds whether anything else broke.',
        '**They document behaviour.** A test named "a buyer cannot pay for a sold car" tells the next reader what the code promises, and unlike a comment it fails when that promise stops being true.',
        '**They improve the design.** Code that is hard to test is usually doing too much or reaching for hidden dependencies. Writing the test first shows that early, when it is cheap to fix.',
        '**They make bugs cheaper.** A failing unit test points at a few lines. A bug found by a customer points at the whole system, and costs trust as well as time.',
      ],
    },
    {
      type: 'paragraph',
      text: 'Unit tests are not the whole story. They cannot show that the parts work together, so we also test every API route over HTTP against a real database, and walk through whole journeys, such as booking and paying for a car, in a real browser. Whatever its size, a good test is named for a behaviour, checks one thing, and can actually fail: a test that passes whatever the code does is worse than none, because it gives false confidence.',
    },
    {
      type: 'heading',
      id: 'react-angular-vue',
      text: 'React, Angular or Vue: how do they compare?',
    },
    {
      type: 'paragraph',
      text: 'All three build fast, accessible interfaces, and all three are used for large products. They differ in how much they decide for you.',
    },
    {
      type: 'list',
      items: [
        '**React** is a library for building user interfaces from components, written in JSX. Data flows one way, from parent to child, and hooks such as `useState` and `useEffect` handle state and side effects. Routing, data fetching and forms come from the ecosystem (we use React Router, TanStack Query and react-hook-form), which gives you freedom and a lot of choices to make.',
        '**Angular** is a complete framework from Google, TypeScript first. It ships a router, forms, an HTTP client, dependency injection, signals and a command-line tool that generates and builds everything in one consistent style. It is the most opinionated of the three, which helps large teams stay consistent and makes the learning curve steeper.',
        '**Vue** is a progressive framework: you can add it to one page or build a whole application with it. Components are usually single-file components with an HTML-like template, and its reactivity system tracks what each part of the page depends on. The official router and the Pinia store cover most needs, and many people find it the easiest of the three to learn.',
      ],
    },
    {
      type: 'table',
      caption: 'React, Angular and Vue side by side',
      head: ['', 'React', 'Angular', 'Vue'],
      rows: [
        ['What it is', 'UI library', 'Full framework', 'Progressive framework'],
        ['Templates', 'JSX (JavaScript)', 'HTML templates', 'HTML templates or JSX'],
        ['Reactivity', 'State and re-rendering', 'Signals and zones', 'Reactive refs'],
        [
          'Built in',
          'Components and hooks',
          'Router, forms, HTTP, DI, CLI',
          'Router and store (official)',
        ],
        ['Language', 'JavaScript or TypeScript', 'TypeScript', 'JavaScript or TypeScript'],
        ['Learning curve', 'Moderate', 'Steeper', 'Gentle'],
      ],
    },
    {
      type: 'paragraph',
      text: 'We chose React for CarMarket because most people who contribute already know it, because its ecosystem has mature tools for exactly our problems (server-state caching, forms, prerendering), and because we can keep the first page light: React, the router and the data cache fit inside our budget of 100 KB of compressed code for the home page. Any of the three would have worked; the best choice is the one your team can build and maintain well.',
    },
  ],
};

const inspectionGuide: BlogPost = {
  slug: 'how-to-inspect-a-used-car',
  kind: 'guide',
  title: 'How to inspect a used car before you book it',
  summary:
    'A practical checklist for looking over a used car: what to ask the seller, what to check outside, under the hood and inside, how to test-drive it, and when to walk away.',
  publishedOn: '2026-11-11',
  author: 'The CarMarket team',
  body: [
    {
      type: 'paragraph',
      text: 'Photos and a description tell you whether a car is worth a closer look. Only an inspection tells you whether it is worth the money. You do not need to be a mechanic: most problems that cost real money leave signs that anyone can spot in half an hour, if they know where to look.',
    },
    {
      type: 'callout',
      text: '**Bring:** a torch, a tissue or paper towel, a coin, a friend if you can, and this list on your phone. Look at the car in daylight and on dry ground, and ask the seller not to start it before you arrive.',
    },
    { type: 'heading', id: 'before-you-go', text: 'Before you go: ask the seller' },
    {
      type: 'paragraph',
      text: 'A short message saves a wasted trip. Honest sellers answer these easily; vague answers are information too.',
    },
    {
      type: 'list',
      items: [
        'How long have you owned it, and why are you selling?',
        'Is there a service history, with receipts or stamps?',
        'Has it been in an accident, or had panels repaired or repainted?',
        'Is any money still owed on it, and is the registration in your name?',
        'Are any warning lights on, or any faults you know about?',
      ],
    },
    { type: 'heading', id: 'outside', text: 'Walk around the outside' },
    {
      type: 'list',
      items: [
        '**Panels and paint.** Crouch at each corner and look along the sides. Ripples, a slightly different shade on one panel, or uneven gaps between doors and wings point to repair work. Ask about it.',
        '**Rust.** Check the wheel arches, the sills under the doors, the bottom of the doors and the boot floor. Surface spots are cosmetic; bubbling paint or holes are not.',
        '**Tyres.** Tread should be even across each tyre. Wear on one edge suggests the alignment is off, or worse, bent suspension. Press a coin into the tread: if you can see the whole outer band, the tyres will need replacing soon.',
        '**Glass and lights.** A chip in the windscreen can spread into a crack. Check every light works, including brake lights (this is where the friend helps).',
      ],
    },
    { type: 'heading', id: 'under-the-hood', text: 'Under the hood' },
    {
      type: 'list',
      items: [
        '**Start it cold.** A cold engine shows problems a warm one hides. Listen for rattles in the first seconds, and watch the exhaust: a little white vapour on a cold day is normal, blue smoke (burning oil) or thick white smoke is not.',
        '**Oil.** Pull the dipstick and wipe it on your tissue. The level should be between the marks and the oil brown to black, not milky or gritty. A creamy residue under the filler cap can mean a head gasket problem.',
        '**Coolant, belts and leaks.** Coolant should be at the right level and clean. Look for cracked belts, wet patches on the engine and fresh drips on the ground beneath it.',
        '**Battery.** White or green crust on the terminals, or a battery much older than the car’s last service, means it may soon need replacing.',
      ],
    },
    { type: 'heading', id: 'inside', text: 'Inside the car' },
    {
      type: 'list',
      items: [
        '**Does the wear match the mileage?** A low reading with a shiny steering wheel, worn pedal rubbers and a sagging driver’s seat does not add up.',
        '**Warning lights.** When you switch on the ignition, the dashboard lights should all come on briefly and then go out. A light that never comes on may have been disconnected.',
        '**Everything that moves.** Try the air conditioning, heating, every window, the locks, mirrors, wipers, seat adjusters and the infotainment screen.',
        '**Smell and damp.** A musty smell, damp carpets or a tide mark under the seats can mean water leaks or flood damage, which causes electrical faults for years.',
      ],
    },
    { type: 'heading', id: 'test-drive', text: 'The test drive' },
    {
      type: 'paragraph',
      text: 'Drive for at least twenty minutes on a mix of roads, including a faster stretch if you can. Turn the radio off.',
    },
    {
      type: 'list',
      items: [
        'The car should track straight on a flat road with your hands light on the wheel.',
        'Brakes should stop the car firmly and in a straight line, without grinding, pulsing or pulling.',
        'Gear changes should be smooth, whether manual or automatic, with no slipping or clunks.',
        'Listen over bumps for knocks from the suspension, and at full steering lock for clicking from the drive shafts.',
        'After the drive, look under the car again for new drips and check the temperature gauge stayed in the middle.',
      ],
    },
    { type: 'heading', id: 'electric-cars', text: 'Extra checks for an electric car' },
    {
      type: 'paragraph',
      text: 'An electric car has far fewer moving parts, but its battery is the most expensive one, so most of your attention goes there.',
    },
    {
      type: 'list',
      items: [
        'Ask for a battery **state of health** report from a dealer or a diagnostic app. Above about 85% is good for a car a few years old.',
        'Compare the range shown at a full charge with the range the model had when new.',
        'Plug it in to check that it actually charges, on both a home charger and, if the car supports it, a fast charger.',
        'Make sure the charging cables come with the car and find out whether the battery warranty passes to you.',
      ],
    },
    { type: 'heading', id: 'paperwork', text: 'The paperwork' },
    {
      type: 'list',
      items: [
        'The vehicle identification number (VIN) on the car, usually at the base of the windscreen and on a door pillar, should match the registration document.',
        'The name on the registration should be the seller’s, and the address where you are viewing the car.',
        'Check for open safety recalls with the manufacturer, using the VIN.',
        'Service receipts should match the mileage and dates the seller told you.',
      ],
    },
    { type: 'heading', id: 'walk-away', text: 'When to walk away' },
    {
      type: 'paragraph',
      text: 'Walk away, however good the price, if the seller will not let you start the car from cold or take a test drive, if the VIN does not match the documents, if there is no proof the seller owns it, or if you are being rushed. There is always another car.',
    },
    {
      type: 'paragraph',
      text: 'On CarMarket, book a car once you are happy with what you have seen and heard. The booking records the asking price at that moment, and you pay it by card; sellers marked **Verified seller** have had their identity checked by our team.',
    },
  ],
};

const priceGuide: BlogPost = {
  slug: 'asking-price-vs-original-price',
  kind: 'guide',
  title: 'Reading a used car’s price: asking vs original',
  summary:
    'Every CarMarket listing shows two prices. Here is what each one means, how to tell whether the gap between them is a good deal, and what you will actually pay.',
  publishedOn: '2026-11-04',
  author: 'The CarMarket team',
  body: [
    {
      type: 'paragraph',
      text: 'Each car on CarMarket shows an **original price** and an **asking price**. Side by side, they tell you more than either does alone, as long as you read them the right way.',
    },
    { type: 'heading', id: 'two-prices', text: 'What the two prices mean' },
    {
      type: 'list',
      items: [
        '**Original price** is what the car cost when it was new, as the seller reports it. It is a reference point, not an offer.',
        '**Asking price** is what the seller wants for the car today. It is the price you book at and the amount your card is charged.',
      ],
    },
    {
      type: 'paragraph',
      text: 'The gap between them is the car’s depreciation so far. A car that cost $42,000 new and is offered at $27,300 is asking 35% less than new. Whether that is a bargain depends on how old the car is, how far it has been driven and what condition it is in.',
    },
    { type: 'heading', id: 'depreciation', text: 'How much should a car have lost?' },
    {
      type: 'paragraph',
      text: 'As a rough guide, a typical car loses 15 to 20% of its value in the first year and about half within five years. That is an average across the market, and the three kinds of car on CarMarket differ from it:',
    },
    {
      type: 'list',
      items: [
        '**Microbuses** tend to hold their value well, because businesses and large families keep buying them. A small gap between original and asking price can still be fair.',
        '**Luxury cars** usually lose value fastest in their first years, which makes a three- to five-year-old luxury car one of the better used buys, provided its service history is complete.',
        '**Electric cars** depend heavily on battery health and on the price of new models. A large gap may be a genuine bargain or a sign of a tired battery, so ask for a battery health report.',
      ],
    },
    {
      type: 'table',
      caption: 'Three example listings, read side by side',
      head: ['Car', 'Original', 'Asking', 'Below new', 'What to ask'],
      rows: [
        [
          '2020 microbus, 48,000 mi',
          '$38,000',
          '$29,500',
          '22%',
          'Fair for a six-year-old van; check the service history.',
        ],
        [
          '2021 luxury sedan, 31,000 mi',
          '$62,000',
          '$33,900',
          '45%',
          'Typical for luxury; confirm the main services were done.',
        ],
        [
          '2022 electric hatchback, 22,000 mi',
          '$36,500',
          '$17,200',
          '53%',
          'Low for its age; ask for a battery health report first.',
        ],
      ],
    },
    { type: 'heading', id: 'compare', text: 'Compare like with like' },
    {
      type: 'paragraph',
      text: 'The original price tells you where a car started; other listings tell you where the market is today. Before you decide, find two or three cars of the same model and similar year, and adjust for the differences:',
    },
    {
      type: 'list',
      items: [
        '**Mileage:** around 10,000 to 12,000 miles a year is average. Well above that should lower the price; well below it is worth paying a little more for, if the service history backs it up.',
        '**Condition:** listings are marked Excellent, Good or Fair. A Fair car should be noticeably cheaper than an Excellent one of the same age.',
        '**History and extras:** a full service history, new tyres, or a recent battery or timing belt all add value you would otherwise pay for soon.',
      ],
    },
    {
      type: 'callout',
      text: '**Too good to be true?** A price far below every similar car usually has a reason: accident damage, flood damage, money still owed on the car, or a seller who wants payment outside the platform. Inspect it carefully, and never pay anyone outside CarMarket.',
    },
    { type: 'heading', id: 'what-you-pay', text: 'What you actually pay' },
    {
      type: 'paragraph',
      text: 'When you book a car, the booking records its asking price at that moment. When you pay, our server works out the amount from that booking, so the price cannot change between the listing and the card payment, and nothing typed into the page can alter it. Prices are shown in the marketplace’s currency, US dollars unless the site says otherwise.',
    },
    {
      type: 'paragraph',
      text: 'Read together, the two prices are a starting point for a good question, not a verdict. If the asking price looks high, ask the seller what justifies it; if it looks low, ask why. A good seller will have an answer, and the answer will tell you a lot about the car.',
    },
  ],
};

/** Newest first, except that the Q&A is always shown first. */
export const posts: readonly BlogPost[] = [qa, inspectionGuide, priceGuide];

export function findPost(slug: string | undefined): BlogPost | undefined {
  return posts.find((post) => post.slug === slug);
}

/** The post's questions or sections, taken from its headings. */
export function postSections(post: BlogPost): { id: string; text: string }[] {
  return post.body.flatMap((block) =>
    block.type === 'heading' ? [{ id: block.id, text: block.text }] : [],
  );
}

export function readingMinutes(post: BlogPost): number {
  const words = post.body
    .map((block) => {
      switch (block.type) {
        case 'list':
          return block.items.join(' ');
        case 'table':
          return block.rows.flat().join(' ');
        case 'code':
          return block.code;
        default:
          return block.text;
      }
    })
    .join(' ')
    .split(/\s+/).length;
  return Math.max(1, Math.round(words / 220));
}

const dateFormat = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'long',
  // Dates are calendar days; formatting in UTC keeps the prerendered and the live page equal.
  timeZone: 'UTC',
});

export function formatPostDate(isoDate: string): string {
  return dateFormat.format(new Date(`${isoDate}T00:00:00Z`));
}
