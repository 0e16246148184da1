import { onTestFinished, vi } from 'vitest';

/**
 * jsdom cannot save files: this records the name of every file the app hands to the browser
 * (an <a download> clicked with an object URL, as lib/download does) instead, until the test ends.
 */
export function captureDownloads(): string[] {
  const saved: string[] = [];
  const { createObjectURL, revokeObjectURL } = URL;
  URL.createObjectURL = () => 'blob:download';
  URL.revokeObjectURL = () => {};
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push(this.download);
  });
  onTestFinished(() => {
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
    click.mockRestore();
  });
  return saved;
}
