import { Download } from 'lucide-react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { useDownloadTasksReport } from '../api/download-tasks-report';
import { notify } from '../../../lib/notify';

/** The admin's export of every task; with no tasks there is nothing to export. */
export function DownloadTasksReportButton({ hasTasks }: { hasTasks: boolean | undefined }) {
  const t = useT();
  const download = useDownloadTasksReport();

  function start() {
    if (hasTasks === false) {
      notify('error', t('tasks.noReport'));
      return;
    }
    download.mutate(undefined, {
      onSuccess: () => toast.success(t('tasks.reportDownloaded')),
      onError: () => notify('error', t('tasks.reportFailed')),
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
      {t('tasks.downloadReport')}
    </Button>
  );
}
