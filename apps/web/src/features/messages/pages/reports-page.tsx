import type { ConversationReport } from '@carmarket/shared';
import { Link } from 'react-router';

import { EmptyState, PageState } from '../../../components/ui/page-state';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format-date';
import { toast } from '../../../lib/toast';
import { useReports, useResolveReport } from '../api/reports';

function ReportItem({ report }: { report: ConversationReport }) {
  const resolve = useResolveReport();
  const open = report.resolvedAt === null;
  return (
    <li
      className="rounded-box border border-base-300 bg-base-100 p-4 card-shadow"
      data-testid="report"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 className="text-lg font-bold break-words">{report.car.name}</h2>
        <span className={`badge badge-sm ${open ? 'badge-warning' : 'badge-ghost'}`}>
          {open ? 'Open' : 'Dealt with'}
        </span>
      </div>
      <p className="mt-1 text-sm text-muted">
        Between {report.buyerName} (buyer) and {report.sellerName} (seller) · reported by{' '}
        {report.reporterName} ({report.reporterSide}) on{' '}
        <time dateTime={report.createdAt}>{formatDateTime(report.createdAt)}</time>
      </p>
      <blockquote className="mt-3 border-l-4 border-base-300 pl-3 break-words whitespace-pre-wrap">
        {report.reason}
      </blockquote>
      {/* Admins read a conversation only while a report of it is open (decision 015). */}
      {open && (
        <div className="mt-4 flex flex-wrap gap-3">
          <Link
            to={`/dashboard/messages/${report.conversationId}`}
            className="button button-outline button-sm"
          >
            Read the conversation
          </Link>
          <button
            type="button"
            className="button button-primary button-sm"
            disabled={resolve.isPending}
            onClick={() =>
              resolve.mutate(report._id, {
                onSuccess: () => toast.success('Marked as dealt with'),
                onError: (error) => toast.error(errorMessage(error)),
              })
            }
          >
            {resolve.isPending ? 'Saving…' : 'Mark as dealt with'}
          </button>
        </div>
      )}
    </li>
  );
}

/** `/dashboard/reports`, admins: reported conversations, open ones first. */
export function ReportsPage() {
  const reports = useReports();
  const body = (
    <PageState
      query={reports}
      loading="Loading the reports…"
      what="the reports"
      empty={<EmptyState description="No one has reported a conversation." />}
    >
      {(data) => (
        <ul className="grid gap-4" aria-label="Reports, open ones first">
          {data.map((report) => (
            <ReportItem key={report._id} report={report} />
          ))}
        </ul>
      )}
    </PageState>
  );
  return (
    <section aria-labelledby="reports-title" className="max-w-4xl">
      <p className="section-eyebrow">Administration</p>
      <h1 id="reports-title" className="mt-2 text-3xl font-extrabold tracking-tight">
        Reports
      </h1>
      <p className="mt-3 max-w-2xl leading-7 text-muted">
        Conversations their members reported. You may read a conversation while a report of it is
        open, until you mark it dealt with; you cannot write in it.
      </p>
      <div className="mt-6">{body}</div>
    </section>
  );
}
