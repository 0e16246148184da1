import { Download } from 'lucide-react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/ui/button';
import { useDownloadTasksReport } from '../api/download-tasks-report';

export const REPORT_MESSAGES = {
  success: 'Task report downloaded successfully',
  empty: 'No task report found.',
  failure: 'Failed to download task report. Please try again.',
} as const;

/** The admin's export of every task; with no tasks there is nothing to export. */
export function DownloadTasksReportButton({ hasTasks }: { hasTasks: boolean | undefined }) {
  const download = useDownloadTasksReport();

  function start() {
    if (hasTasks === false) {
      toast.error(REPORT_MESSAGES.empty);
      return;
    }
    download.mutate(undefined, {
      onSuccess: () => toast.success(REPORT_MESSAGES.success),
      onError: () => toast.error(REPORT_MESSAGES.failure),
    });
  }

  return (
    <Button
      variant="secondary"
      onClick={start}
      disabled={download.isPending}
      aria-busy={download.isPending}
    >
      <Download size={16} aria-hidden />
      Download Report
    </Button>
  );
}
