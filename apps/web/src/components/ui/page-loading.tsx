/** Holds a screenful while the page's code or data loads: the footer stays out of view, so it does not jump. */
export function PageLoading({ label = 'Loading' }: { label?: string }) {
  return (
    <p
      role="status"
      className="flex min-h-dvh animate-pulse items-center justify-center text-muted"
    >
      {label}…
    </p>
  );
}
