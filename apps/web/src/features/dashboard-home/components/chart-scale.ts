/** A round top for an axis: 1, 2 or 5 times a power of ten, at least `max` (and at least 1). */
export function niceMax(max: number): number {
  if (max <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= max) ?? 10;
  return step * power;
}

/** `count` + 1 evenly spaced ticks from 0 to `top`. */
export function ticks(top: number, count = 4): number[] {
  return Array.from({ length: count + 1 }, (_, index) => (top / count) * index);
}
