/** The address of a seller's profile page. */
export function sellerPath(id: string): string {
  return `/sellers/${encodeURIComponent(id)}`;
}
