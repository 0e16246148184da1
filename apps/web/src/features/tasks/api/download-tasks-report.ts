import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '../../../lib/download';

export const TASKS_REPORT_URL = '/api/reports/export/tasks';
export const TASKS_REPORT_FILE = 'tasks_report.xlsx';

/** Every task as a spreadsheet, saved by the browser as tasks_report.xlsx (admin only). */
export function downloadTasksReport(): Promise<void> {
  return downloadFile(TASKS_REPORT_URL, TASKS_REPORT_FILE);
}

export function useDownloadTasksReport() {
  return useMutation({ mutationFn: downloadTasksReport });
}
