import { allow, hide, type Decision } from '../../lib/policy.ts';

/** What search engines are shown. */
export const seoPolicy = {
  /**
   * The car sitemaps: only where people may browse signed out (BROWSE_SIGNED_OUT); closed, cars
   * are behind sign-in and their sitemaps do not exist (404).
   */
  canListCars: (site: { browseSignedOut: boolean }): Decision =>
    site.browseSignedOut ? allow : hide('No such sitemap.'),
};
