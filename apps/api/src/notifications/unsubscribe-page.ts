const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
  `<meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>${title}</title></head><body style="font-family:system-ui,sans-serif;` +
  `max-width:32rem;margin:4rem auto;padding:0 1rem">${body}</body></html>`;

/**
 * The page an unsubscribe link opens: a button, never the change itself, because mail scanners
 * follow links. The form posts what a one-click client posts (RFC 8058) to the same address.
 */
export function confirmPage(what: string): string {
  return page(
    'Unsubscribe',
    `<h1>Unsubscribe</h1><p>Stop ${what}?</p>` +
      `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">` +
      `<button type="submit">Unsubscribe</button></form>`,
  );
}

export function donePage(): string {
  return page(
    'Unsubscribed',
    '<h1>Unsubscribed</h1><p>You will not get these e-mails any more. You can turn them on ' +
      'again in your profile.</p>',
  );
}

/** What a browser shows for a link that is not genuine (`message`: the API's text). */
export function invalidLinkPage(message: string): string {
  return page('Invalid link', `<h1>Invalid link</h1><p>${message}.</p>`);
}
