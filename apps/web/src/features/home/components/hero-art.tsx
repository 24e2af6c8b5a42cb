// An image rather than inline SVG: decorative art need not be part of the page's script.
import heroArtUrl from '../assets/hero-art.svg?no-inline';

/** The hero's illustration: a small SVG, so the page needs no large image to paint. */
export function HeroArt() {
  return (
    <img
      src={heroArtUrl}
      alt=""
      width={560}
      height={440}
      // Phones do not show it, and lazy images that are not displayed are never fetched.
      loading="lazy"
      decoding="async"
      className="hidden h-auto w-full sm:block"
    />
  );
}
