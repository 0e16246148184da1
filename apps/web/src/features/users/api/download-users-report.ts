import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '../../../lib/download';

/** Spec section 7: the team report is a spreadsheet saved as user_details.xlsx. */
export function downloadUsersReport(): Promise<void> {
  return downloadFile('/api/reports/export/users', 'user_details.xlsx');
}

export function useDownloadUsersReport() {
  return useMutation({ mutationFn: downloadUsersReport });
}
