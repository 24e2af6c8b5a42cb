import type { SavedSearch } from '@carmarket/shared';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';

import { EmptyState, PageState } from '../../../components/ui/page-state';
import { toast } from '../../../lib/toast';
import { useSavedSearches } from '../api/get-saved-searches';
import { DeleteSearchDialog } from '../components/delete-search-dialog';
import { RenameSearchDialog } from '../components/rename-search-dialog';
import { SavedSearchItem, SavedSearchesSkeleton } from '../components/saved-search-item';
import { UnconfirmedMailNotice } from '../components/unconfirmed-mail-notice';

function NoSavedSearches() {
  return (
    <EmptyState
      title="You have no saved searches yet"
      description={
        <>
          Choose filters on Find a car and press <strong>Save this search</strong>. We count the new
          cars that match it, and can email you about them.
        </>
      }
      action={
        <Link to="/cars" className="button button-primary">
          Find a car
        </Link>
      }
    />
  );
}

/** `/dashboard/searches`, Buyer: saved searches with their new cars, alerts, Open, Rename, Delete. */
export function SavedSearchesPage() {
  const searches = useSavedSearches();
  const [renaming, setRenaming] = useState<SavedSearch | null>(null);
  const [deleting, setDeleting] = useState<SavedSearch | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [deletions, setDeletions] = useState(0);

  useEffect(() => toast.preload(), []);
  // After a deletion, focus goes to the heading: the row with the button that opened the dialog
  // has gone. (This runs after the dialog's own effect, which gives focus back to that button.)
  useEffect(() => {
    if (deletions > 0) heading.current?.focus();
  }, [deletions]);

  const body = (
    <PageState
      query={searches}
      loading="Loading your saved searches…"
      skeleton={<SavedSearchesSkeleton />}
      what="your saved searches"
      empty={<NoSavedSearches />}
    >
      {(data) => (
        <ul className="grid gap-4" aria-label="Your saved searches, newest first">
          {data.map((search) => (
            <SavedSearchItem
              key={search._id}
              search={search}
              onRename={setRenaming}
              onDelete={setDeleting}
            />
          ))}
        </ul>
      )}
    </PageState>
  );

  return (
    <div className="max-w-4xl">
      <p className="section-eyebrow">Keep track</p>
      <h1
        ref={heading}
        tabIndex={-1}
        className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl"
      >
        Saved searches
      </h1>
      <p className="mt-3 text-lg text-muted">
        Open one to see its cars; the new ones since your last visit are counted here.
      </p>
      <UnconfirmedMailNotice what="alerts about new cars for your saved searches" />
      <div className="mt-8">{body}</div>
      <RenameSearchDialog search={renaming} onClose={() => setRenaming(null)} />
      <DeleteSearchDialog
        search={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => setDeletions((count) => count + 1)}
      />
    </div>
  );
}
