import { DATA_EXPORTS_PER_DAY } from '@carmarket/shared';

import { FormAlert } from '../../../components/ui/form-alert';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { saveFile, useDownloadMyData } from '../api/data-export';
import { SettingsSection } from './section';

/** What the daily limit means (the server's refusal past it says when to come back). */
const LIMIT_TEXT = `You can download your data ${DATA_EXPORTS_PER_DAY} times a day. Each download counts, so keep the file once you have it.`;

/**
 * "Download my data": one ZIP of everything of the person's (decision 042): profile, cars with
 * their photos, bookings, payments and payouts, conversations, saved cars and searches, and the
 * devices signed in. It is prepared as it downloads; a large seller's takes a little while.
 */
export function DataSection() {
  const download = useDownloadMyData();
  const refusedForToday =
    download.error instanceof ApiError && download.error.code === 'too-many-requests';

  return (
    <SettingsSection
      id="my-data"
      title="Download my data"
      intro="A ZIP file of everything we hold about you: your profile, your cars and their photos, bookings, payments and payouts, conversations, saved cars and searches, and where you are signed in."
    >
      <p className="mb-4 text-sm leading-6 text-muted" id="my-data-limit">
        {LIMIT_TEXT}
      </p>
      <FormAlert kind={download.isError ? 'error' : 'success'}>
        {download.isError ? (
          <>
            {errorMessage(download.error)}
            {refusedForToday ? null : ' You can try again.'}
          </>
        ) : download.isSuccess ? (
          'Your file is downloading. Look for it in your browser’s downloads.'
        ) : null}
      </FormAlert>
      <button
        type="button"
        className="button button-outline mt-4"
        aria-describedby="my-data-limit"
        aria-busy={download.isPending || undefined}
        disabled={download.isPending}
        onClick={() => {
          download.reset();
          download.mutate(undefined, { onSuccess: saveFile });
        }}
      >
        {download.isPending && (
          <span className="loading loading-spinner loading-sm" aria-hidden="true" />
        )}
        {download.isPending ? 'Preparing your file…' : 'Download my data'}
      </button>
    </SettingsSection>
  );
}
