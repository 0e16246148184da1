import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Text from the API (titles, descriptions, checklist items, names) is rendered by React as text.
 * Writing HTML into the page directly would let that text become markup and script, so no file
 * of the web app may do it. e2e/untrusted-text.test.ts checks the same in a real browser.
 */
const SOURCE_DIR = path.dirname(fileURLToPath(import.meta.url));
const THIS_FILE = fileURLToPath(import.meta.url);

const RAW_HTML_SINKS: Array<[name: string, pattern: RegExp]> = [
  ['dangerouslySetInnerHTML', /dangerouslySetInnerHTML/],
  ['innerHTML =', /\.innerHTML\s*\+?=(?!=)/],
  ['outerHTML =', /\.outerHTML\s*\+?=(?!=)/],
  ['insertAdjacentHTML', /\.insertAdjacentHTML\s*\(/],
  ['document.write', /\bdocument\.write(ln)?\s*\(/],
];

/** `file:line: sink` for every raw-HTML sink in `text`. */
function findRawHtml(text: string, file = 'text'): string[] {
  return text
    .split('\n')
    .flatMap((line, index) =>
      RAW_HTML_SINKS.filter(([, pattern]) => pattern.test(line)).map(
        ([name]) => `${file}:${index + 1}: ${name}`,
      ),
    );
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(tsx?|jsx?|mjs)$/.test(entry.name) && full !== THIS_FILE ? [full] : [];
  });
}

describe('no raw HTML in the web app', () => {
  it('the check finds each sink it looks for', () => {
    const samples = [
      '<div dangerouslySetInnerHTML={{ __html: task.title }} />',
      'element.innerHTML = task.title;',
      'element.innerHTML += name;',
      'element.outerHTML = html;',
      "element.insertAdjacentHTML('beforeend', html);",
      'document.write(html);',
    ];
    for (const sample of samples) expect(findRawHtml(sample), sample).toHaveLength(1);
    expect(findRawHtml('if (element.innerHTML === "") return;')).toEqual([]);
    expect(findRawHtml('<p>{task.title}</p>')).toEqual([]);
  });

  it('no file under src writes HTML into the page', () => {
    const files = sourceFiles(SOURCE_DIR);
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((file) =>
      findRawHtml(fs.readFileSync(file, 'utf8'), path.relative(SOURCE_DIR, file)),
    );
    expect(found).toEqual([]);
  });
});
