/**
 * A page the server rendered for the person (see entry-server.tsx) shows its buttons before the
 * app's code has arrived, and until the app has taken the page over they do nothing. A click on
 * one in that time is held here and made again once the app is in charge (the layout marks
 * `<html data-hydrated>`), so a quick tap on Book now, Filters or a make's checkbox is not lost.
 * Parts whose code loads on their own (a heart, Ask the seller) show only once they work
 * (lib/use-hydrated.ts). Links need none of this: they work without the app.
 */
const root = document.documentElement;
const interactive = () => root.hasAttribute('data-hydrated');
let held: HTMLElement | null = null;

function hold(event: MouseEvent) {
  const control =
    event.target instanceof Element
      ? event.target.closest<HTMLElement>('button, input[type=checkbox], input[type=radio]')
      : null;
  if (!control || interactive()) return;
  // A submit button would send its form the old way, as a page load, and a checkbox would tick
  // with no search behind it; and React, if it has begun taking the page over, would act on the
  // click now as well as when it is made again.
  event.preventDefault();
  event.stopImmediatePropagation();
  held = control;
}

document.addEventListener('click', hold, true);
new MutationObserver((_records, observer) => {
  if (!interactive()) return;
  observer.disconnect();
  document.removeEventListener('click', hold, true);
  if (held?.isConnected) held.click();
}).observe(root, { attributes: true, attributeFilter: ['data-hydrated'] });
