/**
 * Shown beside the seller's name when an admin has verified the seller, on every card and on the
 * car page. Its tick is drawn here rather than taken from components/ui/icons: that module is
 * part of the app's entry chunk, and importing it from the home page's lazily loaded cars would
 * make Vite list the entry's stylesheet beside them, bytes the home page's budget lacks.
 * It always sits in a flex row, so plain `flex` serves: the home page's stylesheet pays for every
 * class (index.css scans this file).
 */
export function VerifiedBadge() {
  return (
    <span className="flex items-center gap-1 rounded-full bg-secondary-soft px-2 py-0.5 text-xs font-semibold text-secondary">
      <svg
        viewBox="0 0 24 24"
        width="14"
        height="14"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        <path d="m5 12.5 4.5 4.5L19 7.5" />
      </svg>
      Verified seller
    </span>
  );
}
