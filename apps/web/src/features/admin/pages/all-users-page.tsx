import { ADMIN_PAGE_SIZE, type AdminUser } from '@carmarket/shared';
import { useEffect, useId, useRef, useState } from 'react';

import { EmptyState, PageState } from '../../../components/ui/page-state';
import { errorMessage } from '../../../lib/api-client';
import { usePage } from '../../../lib/page';
import { toast } from '../../../lib/toast';
import { useUsers, useVerifyUser, type UserRoleFilter } from '../api/users';
import { DeleteUserDialog } from '../components/delete-user-dialog';
import { ExportLinks } from '../components/export-links';
import { Pagination } from '../components/pagination';
import { UserCards, UsersTable } from '../components/users-list';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useQueryParams } from '../../../lib/use-query-params';

const TITLES = {
  Seller: { title: 'All Sellers', noun: 'sellers' },
  Buyer: { title: 'All Buyers', noun: 'buyers' },
  all: { title: 'All Users', noun: 'users' },
} as const;

function roleOf(value: string | null): UserRoleFilter {
  return value === 'Seller' || value === 'Buyer' ? value : undefined;
}

/**
 * All User, All Seller and All Buyer (`/dashboard/allUser?role=Seller|Buyer`): people with
 * search and pages; admins verify sellers and delete accounts here.
 */
export function AllUsersPage() {
  const [searchParams] = useQueryParams();
  const role = roleOf(searchParams.get('role'));
  // Another menu entry (All sellers, All buyers) starts afresh, with an empty search box.
  return <UsersPage key={role ?? 'all'} role={role} />;
}

function UsersPage({ role }: { role: UserRoleFilter }) {
  const [searchParams, setSearchParams] = useQueryParams();
  const q = searchParams.get('q') ?? '';
  const page = Math.max(1, Number.parseInt(searchParams.get('page') ?? '1', 10) || 1);
  const { title, noun } = TITLES[role ?? 'all'];
  usePage({ title });

  const searchId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const pagesRef = useRef<HTMLDivElement>(null);
  const [search, setSearch] = useState(q);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const debouncedSearch = useDebouncedValue(search.trim());

  // Typing searches once the person pauses, from the first page; the address keeps the search.
  const lastSearched = useRef(q);
  useEffect(() => {
    if (debouncedSearch === lastSearched.current) return;
    lastSearched.current = debouncedSearch;
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (debouncedSearch) next.set('q', debouncedSearch);
        else next.delete('q');
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  }, [debouncedSearch, setSearchParams]);

  // The Back button can change the search too; the box follows it.
  useEffect(() => {
    if (q === lastSearched.current) return;
    lastSearched.current = q;
    setSearch(q);
  }, [q]);

  useEffect(() => toast.preload(), []);

  // After Previous, Next or a page number, continue from the summary of the new page (the link
  // pressed may be gone); typing in the search box keeps its focus.
  const shownPage = useRef(page);
  useEffect(() => {
    if (shownPage.current === page) return;
    shownPage.current = page;
    const focused = document.activeElement;
    if (focused === document.body || pagesRef.current?.contains(focused)) {
      summaryRef.current?.focus();
    }
  }, [page]);

  const users = useUsers({ role, q, page });
  const { data, isPending, isFetching, isPlaceholderData } = users;
  const verify = useVerifyUser();

  // Past the last page (e.g. after deleting its only user): show the last page instead.
  const pageCount = data?.pageCount;
  useEffect(() => {
    if (pageCount !== undefined && page > pageCount) {
      setSearchParams(
        (params) => {
          const next = new URLSearchParams(params);
          if (pageCount > 1) next.set('page', String(pageCount));
          else next.delete('page');
          return next;
        },
        { replace: true },
      );
    }
  }, [page, pageCount, setSearchParams]);

  function handleVerify(user: AdminUser) {
    verify.mutate(user._id, {
      onSuccess: () => {
        toast.success('User verified');
        requestAnimationFrame(() => {
          // Both the table and the cards have the badge; focus the one that is shown.
          const badges = document.querySelectorAll<HTMLElement>(`[id="verified-${user._id}"]`);
          [...badges].find((badge) => badge.offsetParent !== null)?.focus();
        });
      },
      onError: (problem) => toast.error(errorMessage(problem)),
    });
  }

  function hrefFor(target: number) {
    const next = new URLSearchParams(searchParams);
    if (target > 1) next.set('page', String(target));
    else next.delete('page');
    return `?${next}`;
  }

  const first = (page - 1) * ADMIN_PAGE_SIZE + 1;
  const summary = data
    ? data.total === 0
      ? q
        ? `No ${noun} match “${q}”.`
        : `No ${noun} yet.`
      : data.total === 1
        ? `Showing the one ${noun.slice(0, -1)}${q ? ` matching “${q}”` : ''}.`
        : `Showing ${first}–${first + data.users.length - 1} of ${data.total} ${noun}${q ? ` matching “${q}”` : ''}.`
    : '';

  return (
    <section aria-labelledby="users-title">
      <p className="section-eyebrow">Administration</p>
      <h1
        id="users-title"
        ref={headingRef}
        tabIndex={-1}
        className="mt-2 text-3xl font-extrabold tracking-tight"
      >
        {title}
      </h1>
      <p className="mt-3 max-w-2xl leading-7 text-muted">
        Verify sellers you have checked: their cars then carry a “Verified seller” badge. A seller’s
        Cars lists everything they listed, to remove a car with a reason. Deleting an account signs
        the person out and takes their cars off sale.
      </p>
      <ExportLinks />

      <form
        role="search"
        className="mt-6 max-w-md"
        onSubmit={(event) => {
          event.preventDefault();
        }}
      >
        <label htmlFor={searchId} className="field-label">
          Search by name or email
        </label>
        <input
          id={searchId}
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className="input w-full"
          autoComplete="off"
          spellCheck={false}
        />
      </form>

      <p ref={summaryRef} tabIndex={-1} role="status" className="mt-4 min-h-6 text-sm text-muted">
        {isFetching && (isPending || isPlaceholderData) ? `Loading ${noun}…` : summary}
      </p>

      <div className="mt-3">
        <PageState
          query={users}
          skeleton={
            <div className="grid gap-2" aria-hidden="true">
              {[0, 1, 2, 3, 4].map((index) => (
                <div key={index} className="h-12 animate-pulse rounded-box bg-base-200" />
              ))}
            </div>
          }
          what={`the ${noun}`}
          isEmpty={(loaded) => loaded.users.length === 0}
          empty={
            <EmptyState
              title={summary}
              action={
                q && (
                  <button
                    type="button"
                    className="button button-outline button-sm"
                    onClick={() => setSearch('')}
                  >
                    Clear the search
                  </button>
                )
              }
            />
          }
        >
          {(loaded) => (
            <div className={isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}>
              <UsersTable
                users={loaded.users}
                onVerify={handleVerify}
                onDelete={setDeleting}
                verifyingId={verify.isPending ? (verify.variables ?? null) : null}
              />
              <UserCards
                users={loaded.users}
                onVerify={handleVerify}
                onDelete={setDeleting}
                verifyingId={verify.isPending ? (verify.variables ?? null) : null}
              />
            </div>
          )}
        </PageState>
      </div>

      {data && (
        <div ref={pagesRef} className="mt-6">
          <Pagination page={page} pageCount={data.pageCount} hrefFor={hrefFor} />
        </div>
      )}

      <DeleteUserDialog
        user={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => headingRef.current?.focus()}
      />
    </section>
  );
}
