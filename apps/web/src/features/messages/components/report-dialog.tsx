import { REPORT_REASON_MAX_LENGTH, type Conversation } from '@carmarket/shared';
import { useId, useState, type FormEvent } from 'react';

import { Dialog } from '../../../components/ui/dialog';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useReportConversation } from '../api/report-conversation';

/** Report the conversation to the administrators, who may then read it. */
export function ReportButton({ conversation }: { conversation: Conversation }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const report = useReportConversation();
  const id = useId();
  const text = reason.trim();

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (text === '' || text.length > REPORT_REASON_MAX_LENGTH) return;
    report.mutate(
      { conversationId: conversation._id, reason: text },
      {
        onSuccess: () => {
          setOpen(false);
          setReason('');
          toast.success('Reported. An administrator will read the conversation.');
        },
      },
    );
  }

  return (
    <>
      <button
        type="button"
        className="button button-outline button-sm"
        aria-haspopup="dialog"
        onClick={() => {
          report.reset();
          setOpen(true);
        }}
      >
        Report
      </button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Report this conversation"
        description="Tell the administrators what is wrong (a scam, abuse, spam). Reporting lets them read this conversation; the other person is not told."
        busy={report.isPending}
      >
        <form onSubmit={handleSubmit} className="form-stack">
          <div>
            <label htmlFor={`${id}-reason`} className="font-semibold">
              What happened?
            </label>
            <textarea
              id={`${id}-reason`}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              rows={4}
              maxLength={REPORT_REASON_MAX_LENGTH}
              required
              data-autofocus
              className="textarea mt-2 w-full"
            />
          </div>
          {report.isError && (
            <p role="alert" className="alert alert-error alert-soft">
              {errorMessage(report.error)}
            </p>
          )}
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <button
              type="button"
              className="button button-outline"
              onClick={() => setOpen(false)}
              disabled={report.isPending}
            >
              Cancel
            </button>
            <button type="submit" className="button button-primary" disabled={report.isPending}>
              {report.isPending ? 'Reporting…' : 'Report'}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
