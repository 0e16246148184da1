import path from 'node:path';

/** Where things are, from apps/web/e2e/support. */
export const webDir = path.resolve(import.meta.dirname, '../..');
export const repoRoot = path.resolve(webDir, '../..');
export const apiServerEntry = path.join(repoRoot, 'apps/api/dist/server.js');
export const webIndexHtml = path.join(webDir, 'dist/index.html');
/** Screenshots for people to look at (git-ignored); failures go to screenshots/failures. */
export const screenshotsDir = path.join(webDir, 'e2e/screenshots');
