import { describe, expect, it } from 'vitest';

import { describeSearch, savedQueryOf, suggestSearchName } from './saved-search';

const suggest = (query: string, categoryName?: string) =>
  suggestSearchName(new URLSearchParams(query), categoryName);

describe('a saved search', () => {
  it('is named after its make, model, price and place', () => {
    expect(
      suggest(
        'make=Toyota&model=Corolla&priceMax=1500000&near=4671654&radiusKm=80&placeName=Austin%2C+TX',
      ),
    ).toBe('Toyota Corolla, under $15,000, within 50 mi of Austin');
  });

  it('names ranges by their ends, and lists repeated values as alternatives', () => {
    expect(suggest('priceMin=500000&priceMax=1000000&yearMin=2015&yearMax=2019')).toBe(
      '$5,000 to $10,000, 2015 to 2019',
    );
    expect(suggest('priceMin=500000&yearMin=2015')).toBe('From $5,000, 2015 or newer');
    // Lengths in miles beside dollars; the address holds the API's kilometres.
    expect(suggest('yearMax=2010&mileageMax=160934')).toBe('2010 or older, under 100,000 mi');
    expect(suggest('make=Audi&make=BMW&make=Volvo')).toBe('Audi, BMW or Volvo');
    expect(suggest('make=Toyota&make=Honda&model=Corolla&model=Civic')).toBe(
      'Toyota or Honda (Corolla or Civic)',
    );
  });

  it('says the words searched, the body type, fuel and gearbox in plain words', () => {
    expect(suggest('q=roof+rack&bodyType=SUV&fuel=plug-in+hybrid&transmission=manual')).toBe(
      '“roof rack”, SUV, Plug-in hybrid, Manual',
    );
  });

  it('names deal ratings as cards do, and lists them in its summary', () => {
    expect(suggest('make=Mazda&deal=great&deal=good')).toBe('Mazda, Great deal or Good deal');
    expect(describeSearch('make=Mazda&deal=great&deal=good')).toBe(
      'Mazda · Great deal · Good deal',
    );
    expect(describeSearch('deal=great,overpriced')).toBe('Great deal or Overpriced');
    // Best first, whatever order they were ticked in.
    expect(suggest('deal=good&deal=great')).toBe('Great deal or Good deal');
    expect(describeSearch('deal=good&deal=great')).toBe('Great deal · Good deal');
    expect(describeSearch('deal=overpriced,good')).toBe('Good deal or Overpriced');
  });

  it('starts with the category on a category page, and is "All cars" with no filter', () => {
    expect(suggest('fuel=electric', 'Luxury car')).toBe('Luxury car, Electric');
    expect(suggest('', 'Microbus')).toBe('Microbus');
    expect(suggest('sort=price_asc&limit=12')).toBe('All cars');
  });

  it('leaves out a place it has no name for, and keeps within the 120 characters allowed', () => {
    expect(suggest('near=4671654&radiusKm=40')).toBe('Within 25 mi');
    const long = suggest(`q=${'very long words '.repeat(12)}`);
    expect(long).toHaveLength(120);
    expect(long.endsWith('…')).toBe(true);
  });

  it('keeps the API query without the page size, and the place name beside its place', () => {
    const params = new URLSearchParams(
      'limit=12&make=Toyota&near=4671654&placeName=Austin%2C+TX&utm=x&sort=price_asc',
    );
    expect(savedQueryOf(params)).toBe(
      'make=Toyota&near=4671654&sort=price_asc&placeName=Austin%2C+TX',
    );
    expect(savedQueryOf(new URLSearchParams('placeName=Austin&fuel=diesel'))).toBe('fuel=diesel');
  });

  it('reads back as a line of its filters', () => {
    expect(describeSearch('make=Toyota&priceMax=1500000&near=1&radiusKm=80&placeName=Austin')).toBe(
      'Toyota · Up to $15,000 · Within 50 mi of Austin',
    );
    expect(describeSearch('sort=newest')).toBe('Every car on sale');
  });
});
