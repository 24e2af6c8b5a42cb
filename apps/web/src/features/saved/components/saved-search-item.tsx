import type { AlertChoice, SavedSearch } from '@carmarket/shared';
import { useId } from 'react';
import { Link } from 'react-router';

import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { describeSearch } from '../../search';
import { ALERT_LABELS, ALERT_ORDER } from '../alert-choices';
import { useUpdateSavedSearch } from '../api/update-saved-search';

const count = new Intl.NumberFormat('en-US');

function matchingText(search: SavedSearch): string {
  if (search.matching === null) return 'This search can no longer be run: save it again';
  const cars = search.matching === 1 ? 'car matches' : 'cars match';
  return `${search.matchingIsEstimate ? 'About ' : ''}${count.format(search.matching)} ${cars} now`;
}

/** Where the saved search shows its cars. */
const searchPath = (search: SavedSearch) => `/cars?${search.query}`;

/** One saved search: name, filters, counts, Open, its alerts, Rename and Delete. */
export function SavedSearchItem({
  search,
  onRename,
  onDelete,
}: {
  search: SavedSearch;
  onRename: (search: SavedSearch) => void;
  onDelete: (search: SavedSearch) => void;
}) {
  const update = useUpdateSavedSearch();
  const alertsId = useId();

  function handleAlerts(alerts: AlertChoice) {
    update.mutate(
      { id: search._id, changes: { alerts } },
      {
        onSuccess: () => toast.success(`Alerts for “${search.name}”: ${ALERT_LABELS[alerts]}`),
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  }

  return (
    <li
      className="rounded-box border border-base-300 bg-base-100 p-4 card-shadow sm:p-5"
      data-testid="saved-search"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <h2 className="text-lg font-bold break-words">{search.name}</h2>
            {search.newSinceVisit > 0 && (
              <span className="badge badge-sm badge-primary whitespace-nowrap">
                {count.format(search.newSinceVisit)} new
              </span>
            )}
          </div>
          <p className="mt-1 text-sm break-words text-muted">{describeSearch(search.query)}</p>
          <p className="mt-1 text-sm font-semibold">{matchingText(search)}</p>
        </div>
        <Link
          to={searchPath(search)}
          className="button button-primary button-sm self-start"
          // Seen now: its "new" count starts again from zero.
          onClick={() => update.mutate({ id: search._id, changes: { visited: true } })}
        >
          Open<span className="sr-only"> {search.name}</span>
        </Link>
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-3 border-t border-base-300 pt-4">
        <div className="flex items-center gap-2">
          <label htmlFor={alertsId} className="text-sm font-semibold">
            Email alerts
          </label>
          <select
            id={alertsId}
            className="select select-sm w-auto"
            value={search.alerts}
            onChange={(event) => handleAlerts(event.target.value as AlertChoice)}
          >
            {ALERT_ORDER.map((choice) => (
              <option key={choice} value={choice}>
                {ALERT_LABELS[choice]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex gap-2 sm:ml-auto">
          <button
            type="button"
            className="button button-outline button-sm"
            aria-haspopup="dialog"
            onClick={() => onRename(search)}
          >
            Rename<span className="sr-only"> {search.name}</span>
          </button>
          <button
            type="button"
            className="button button-outline button-sm"
            aria-haspopup="dialog"
            onClick={() => onDelete(search)}
          >
            Delete<span className="sr-only"> {search.name}</span>
          </button>
        </div>
      </div>
    </li>
  );
}

/** The size of a few saved searches, while they load. */
export function SavedSearchesSkeleton() {
  return (
    <div aria-hidden="true" className="grid gap-4">
      {[0, 1].map((index) => (
        <div key={index} className="animate-pulse rounded-box border border-base-300 p-5">
          <div className="h-5 w-1/2 rounded-lg bg-base-300" />
          <div className="mt-3 h-4 w-2/3 rounded-lg bg-base-300" />
          <div className="mt-3 h-4 w-1/4 rounded-lg bg-base-300" />
          <div className="mt-6 h-8 w-full rounded-lg bg-base-300" />
        </div>
      ))}
    </div>
  );
}
