/** How far a finger or the mouse must travel sideways over a photo to show the next one. */
export const SWIPE_DISTANCE = 50;

/**
 * The photo a drag of `dx`, `dy` pixels moves to: 1 for the next (a drag to the left), -1 for
 * the previous, 0 when it was too short or more up and down than sideways. Shared by the car
 * page's photo and the full-screen viewer, and tiny: the page loads it up front.
 */
export function swipeStep(dx: number, dy: number): -1 | 0 | 1 {
  if (Math.abs(dx) < SWIPE_DISTANCE || Math.abs(dx) <= Math.abs(dy)) return 0;
  return dx < 0 ? 1 : -1;
}
