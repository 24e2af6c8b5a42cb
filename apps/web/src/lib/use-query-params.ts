import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';

type Update = (params: URLSearchParams) => URLSearchParams;

/**
 * The address's query, and a way to change it. React Router's useSearchParams would do, but it
 * pulls extra router code into the bundle every page loads (the home page's budget pays for it).
 */
export function useQueryParams(): [
  URLSearchParams,
  (update: Update, options?: { replace?: boolean }) => void,
] {
  const { search, pathname, hash } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback(
    (update: Update, options?: { replace?: boolean }) => {
      const next = update(new URLSearchParams(window.location.search)).toString();
      void navigate(`${pathname}${next ? `?${next}` : ''}${hash}`, {
        replace: options?.replace ?? false,
      });
    },
    [navigate, pathname, hash],
  );
  return [params, setParams];
}
