import { replaceUnsafeCharacters } from '@task-manager/shared';

/** Excel's limit for the text of one cell (UTF-16 code units): past it, it reports the file damaged. */
export const MAX_CELL_TEXT = 32_767;

/**
 * A stored text as a spreadsheet cell can hold it. The schemas refuse what XML 1.0 cannot carry,
 * but older rows may still hold it, and one such character makes the whole workbook unreadable:
 * - each C0 control character other than tab, LF and CR, U+FFFE, U+FFFF and each surrogate
 *   without its pair becomes U+FFFD, one for one: the reader sees that something was there
 *   (removal would silently join "a\u0000b" into "ab"), and it is what Node's own UTF-8 encoder
 *   writes for a lone surrogate anyway;
 * - DEL too: exceljs would otherwise drop it without a trace;
 * - CR LF and a lone CR become LF, as every XML parser reads them anyway (XML 1.0, 2.11), so
 *   every reader agrees on the text;
 * - past Excel's limit the text is cut, never inside a surrogate pair, and ends with '…'.
 */
export function spreadsheetText(value: string): string {
  const safe = replaceUnsafeCharacters(value)
    .replaceAll('\u007F', '\uFFFD')
    .replaceAll('\r\n', '\n')
    .replaceAll('\r', '\n');
  if (safe.length <= MAX_CELL_TEXT) return safe;
  let end = MAX_CELL_TEXT - 1;
  const last = safe.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${safe.slice(0, end)}…`;
}
