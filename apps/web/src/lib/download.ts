import { api } from './api-client';

/** Fetch a file with the session's token and hand it to the browser as a download. */
export async function downloadFile(url: string, fileName: string): Promise<void> {
  const { data } = await api.get<Blob>(url, { responseType: 'blob' });
  const href = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL dies.
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
