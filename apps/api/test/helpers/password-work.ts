import type { Response } from 'supertest';

/**
 * Sends `request` while `hold` keeps the only slot of password work busy (an app built with
 * `passwordWork: { concurrency: 1, waiting: 0 }` and cost 12, so a hash takes about 250 ms): the
 * request starts 50 ms after the holder, once the holder is hashing. Tried up to three times, in
 * case a loaded machine let the request reach the queue first; answers the last response.
 */
export async function besideBusyHashing(
  hold: () => PromiseLike<Response>,
  request: () => PromiseLike<Response>,
): Promise<Response> {
  let res: Response | undefined;
  for (let attempt = 0; attempt < 3 && res?.status !== 503; attempt++) {
    [, res] = await Promise.all([
      hold(),
      new Promise((resolve) => setTimeout(resolve, 50)).then(request),
    ]);
  }
  return res!;
}
