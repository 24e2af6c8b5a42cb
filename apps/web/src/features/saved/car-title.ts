/** "Toyota Corolla 2019": a car's name with its model year, unless the name already says it. */
export function carTitle(car: { name: string; year: number }): string {
  return car.name.includes(String(car.year)) ? car.name : `${car.name} ${car.year}`;
}
