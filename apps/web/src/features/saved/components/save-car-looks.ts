/** The heart's looks, for a buyer's heart and a signed-out visitor's alike. */
export const looks = {
  // Round, over the corner of a card's photo (save-car-button.css).
  icon: 'card-heart',
  // Beside Book now on a car's page.
  labelled: 'button button-outline aria-pressed:bg-primary-soft',
};
