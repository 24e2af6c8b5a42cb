/** Holds the page's space while its code or data loads, so the footer does not jump. */
export function PageLoading({ label = 'Loading' }: { label?: string }) {
  return (
    <p
      role="status"
      className="flex min-h-[60vh] animate-pulse items-center justify-center text-muted"
    >
      {label}…
    </p>
  );
}
