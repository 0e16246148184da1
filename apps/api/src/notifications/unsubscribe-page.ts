import { escapeHtml, type ServerTexts } from '../i18n/texts.js';

/**
 * The pages an unsubscribe link shows in a browser. Their look is one <style> block carrying
 * the answer's CSP nonce (`res.locals.cspNonce`): the policy allows no style attribute.
 */
const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;' +
  'line-height:1.5;color:#0f172a;background:#fff}' +
  'h1{font-size:1.5rem}a{color:#1d4ed8}' +
  'button{font:inherit;padding:.5rem 1rem;border:0;border-radius:.375rem;background:#1d4ed8;' +
  'color:#fff;cursor:pointer}' +
  '@media (prefers-color-scheme:dark){body{color:#e2e8f0;background:#0f172a}a{color:#93c5fd}}';

const page = (texts: ServerTexts, nonce: string, title: string, body: string) =>
  `<!doctype html><html lang="${texts.language}"><head><meta charset="utf-8">` +
  `<meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>${title}</title><style nonce="${nonce}">${STYLE}</style></head>` +
  `<body><main>${body}</main></body></html>`;

/** The way into the app, where the e-mail settings are. */
const settingsLink = (texts: ServerTexts) =>
  `<p><a href="/profile#profile-email-notifications">${escapeHtml(texts.unsubscribe.settings)}</a></p>`;

/**
 * The page an unsubscribe link opens: a button, never the change itself, because mail scanners
 * follow links. The form posts what a one-click client posts (RFC 8058) to the same address.
 */
export function confirmPage(texts: ServerTexts, nonce: string, what: string): string {
  const { unsubscribe } = texts;
  return page(
    texts,
    nonce,
    escapeHtml(unsubscribe.title),
    `<h1>${escapeHtml(unsubscribe.title)}</h1><p>${escapeHtml(unsubscribe.question(what))}</p>` +
      `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">` +
      `<button type="submit">${escapeHtml(unsubscribe.button)}</button></form>`,
  );
}

export function donePage(texts: ServerTexts, nonce: string): string {
  const { unsubscribe } = texts;
  return page(
    texts,
    nonce,
    escapeHtml(unsubscribe.doneTitle),
    `<h1>${escapeHtml(unsubscribe.doneTitle)}</h1><p>${escapeHtml(unsubscribe.done)}</p>` +
      settingsLink(texts),
  );
}

/** What a browser shows for a link that is not genuine. */
export function invalidLinkPage(texts: ServerTexts, nonce: string): string {
  const { unsubscribe } = texts;
  return page(
    texts,
    nonce,
    escapeHtml(unsubscribe.invalidTitle),
    `<h1>${escapeHtml(unsubscribe.invalidTitle)}</h1><p>${escapeHtml(unsubscribe.invalid)}</p>` +
      settingsLink(texts),
  );
}
