import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binary } from '../helpers/expectations.js';
import { signUp, type Session } from '../helpers/factories.js';
import { FORMULA_LIKE, hostileTexts } from '../helpers/hostile-text.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';
import {
  checkXmlParts,
  readWithExcelJS,
  readWithReadExcelFile,
  type Rows,
} from '../helpers/xlsx-readers.js';

/**
 * Older rows may hold text the schemas now refuse (control characters, U+FFFE/U+FFFF, broken
 * surrogates, texts past a spreadsheet cell's limit). Stored straight through the database as
 * such data would be, every hostile text must still give reports that open in exceljs, in
 * read-excel-file and in libxml2, with each text cell holding the text as the exports promise
 * to clean it (expectedCell below).
 */

const TASKS = '/api/reports/export/tasks';
const USERS = '/api/reports/export/users';

/** Excel's limit for the text of one cell, in UTF-16 code units. */
const MAX_CELL_TEXT = 32_767;

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * The promise, written out one code unit at a time: each C0 control character other than tab,
 * LF and CR, DEL, U+FFFE, U+FFFF and each surrogate without its pair becomes U+FFFD; a text
 * longer than a cell may be is cut to 32,766 code units (one less rather than half a surrogate
 * pair) and ends with '…'. CR LF and a lone CR become LF, as XML parsers read them anyway.
 */
function expectedCell(text: string): string {
  let cleaned = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const unsafe =
      (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) ||
      code === 0x7f ||
      code === 0xfffe ||
      code === 0xffff ||
      (isHigh(code) && !isLow(text.charCodeAt(i + 1))) ||
      (isLow(code) && !isHigh(text.charCodeAt(i - 1)));
    cleaned += unsafe ? '\uFFFD' : text[i];
  }
  // What every XML parser does to line breaks anyway (XML 1.0, section 2.11).
  cleaned = cleaned.replaceAll('\r\n', '\n').replaceAll('\r', '\n');
  if (cleaned.length <= MAX_CELL_TEXT) return cleaned;
  let end = MAX_CELL_TEXT - 1;
  if (isHigh(cleaned.charCodeAt(end - 1))) end -= 1;
  return `${cleaned.slice(0, end)}…`;
}

/** Long values shortened and escaped, so that a failure stays readable. */
function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= 60 ? text : `${text.slice(0, 60)}… (${text.length} characters)`;
}

/** Compares column `column` of each row (matched by column `key`) with what was expected. */
function expectColumn(
  reader: string,
  rows: Rows,
  key: number,
  column: number,
  expected: Map<string, string>,
) {
  const byKey = new Map(rows.slice(1).map((row) => [String(row[key]), row[column]]));
  const wrong: string[] = [];
  for (const [id, text] of expected) {
    const actual = byKey.get(id);
    if (actual !== text)
      wrong.push(`${id}: expected ${show(text)}, ${reader} read ${show(actual)}`);
  }
  const shown =
    wrong.length > 12 ? [...wrong.slice(0, 12), `…and ${wrong.length - 12} more`] : wrong;
  expect(shown, `${reader}, column ${column + 1}`).toEqual([]);
}

interface StoredMember {
  id: string;
  name: string;
  email: string;
}

describe(`reports of hostile stored text (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  const texts = hostileTexts(ENGINE);
  /** As the database gives them back (engines differ on broken surrogates). */
  let members: StoredMember[] = [];
  let tasks: Array<{ id: string; title: string; description: string; assignedTo: string }> = [];

  const download = async (path: string) => {
    const res = await ctx.api.get(path).set(admin.auth).buffer(true).parse(binary).expect(200);
    return res.body as Buffer;
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin', { name: 'Report Admin' });
    const now = Date.now();
    const memberRows = texts.map((text, i) => ({
      id: randomUUID(),
      name: text,
      // Unique whatever the text: the rows are matched by e-mail in the users report.
      email: `m${i}.${text.slice(0, 60)}@example.com`,
      password_hash: 'not-a-bcrypt-hash',
      role: 'member' as const,
      profile_image_url: null,
      token_version: 0,
      created_at: new Date(now).toISOString(),
      updated_at: new Date(now).toISOString(),
    }));
    const taskRows = texts.map((text, i) => ({
      id: randomUUID(),
      title: text,
      description: texts[(i + 1) % texts.length]!,
      priority: 'Medium' as const,
      status: 'Pending' as const,
      progress: 0,
      completed_todo_count: 0,
      due_date: new Date(now + 7 * 86_400_000).toISOString(),
      created_by: admin.id,
      created_at: new Date(now - i * 1000).toISOString(),
      updated_at: new Date(now - i * 1000).toISOString(),
    }));
    await ctx.db.transaction().execute(async (trx) => {
      for (const row of memberRows) await trx.insertInto('users').values(row).execute();
      for (const row of taskRows) await trx.insertInto('tasks').values(row).execute();
      // Two assignees each: the "Assigned To" cell joins hostile names and e-mails.
      for (const [i, task] of taskRows.entries()) {
        await trx
          .insertInto('task_assignees')
          .values([
            { task_id: task.id, user_id: memberRows[i]!.id, position: 0 },
            { task_id: task.id, user_id: memberRows[(i + 3) % texts.length]!.id, position: 1 },
          ])
          .execute();
      }
    });

    members = await ctx.db
      .selectFrom('users')
      .select(['id', 'name', 'email'])
      .where('role', '=', 'member')
      .execute();
    const byId = new Map(members.map((m) => [m.id, m]));
    const storedTasks = await ctx.db
      .selectFrom('tasks')
      .select(['id', 'title', 'description'])
      .execute();
    tasks = storedTasks.map((task) => {
      const i = taskRows.findIndex((row) => row.id === task.id);
      const assignees = [memberRows[i]!.id, memberRows[(i + 3) % texts.length]!.id].map((id) =>
        byId.get(id)!,
      );
      return { ...task, assignedTo: assignees.map((m) => `${m.name} (${m.email})`).join(', ') };
    });
  });
  afterAll(() => ctx.close());

  it('stores the hostile texts as older data would hold them', () => {
    expect(members).toHaveLength(texts.length);
    expect(tasks).toHaveLength(texts.length);
    const names = members.map((m) => m.name);
    // The database keeps what the schemas refuse today.
    expect(names).toContain('Mallory\u0001\u000b\u001b[31m');
    expect(names).toContain('\uFFFE');
    expect(names).toContain('\uFFFF');
    expect(names.some((name) => name.length === 100_000)).toBe(true);
    if (ENGINE === 'sqlite') expect(names).toContain('a\u0000b');
  });

  it.each([
    ['tasks_report.xlsx', TASKS],
    ['user_details.xlsx', USERS],
  ])('%s is well-formed XML 1.0 in every part (libxml2)', async (_name, path) => {
    const { parts, malformed } = checkXmlParts(await download(path));
    expect(parts).toContain('xl/worksheets/sheet1.xml');
    expect(malformed).toEqual([]);
  });

  describe('tasks_report.xlsx', () => {
    const expected = () => ({
      title: new Map(tasks.map((t) => [t.id, expectedCell(t.title)])),
      description: new Map(tasks.map((t) => [t.id, expectedCell(t.description)])),
      assignedTo: new Map(tasks.map((t) => [t.id, expectedCell(t.assignedTo)])),
    });

    it('opens in exceljs with every text cleaned', async () => {
      const { rows } = await readWithExcelJS(await download(TASKS));
      expect(rows).toHaveLength(1 + tasks.length);
      const { title, description, assignedTo } = expected();
      expectColumn('exceljs', rows, 0, 1, title);
      expectColumn('exceljs', rows, 0, 2, description);
      expectColumn('exceljs', rows, 0, 8, assignedTo);
    });

    it('opens in read-excel-file with every text cleaned', async () => {
      const rows = await readWithReadExcelFile(await download(TASKS));
      expect(rows).toHaveLength(1 + tasks.length);
      const { title, description, assignedTo } = expected();
      expectColumn('read-excel-file', rows, 0, 1, title);
      expectColumn('read-excel-file', rows, 0, 2, description);
      expectColumn('read-excel-file', rows, 0, 8, assignedTo);
    });

    it('writes text that looks like a formula as a text cell, never as a formula', async () => {
      const body = await download(TASKS);
      expect(checkXmlParts(body).formulas).toBe(0);
      const exceljs = await readWithExcelJS(body);
      const other = await readWithReadExcelFile(body);
      for (const text of FORMULA_LIKE) {
        const task = tasks.find((t) => t.title === text)!;
        const at = exceljs.rows.findIndex((row) => row[0] === task.id);
        expect(exceljs.rows[at]![1], text).toBe(expectedCell(text));
        expect(exceljs.types[at]![1], text).toBe(ExcelJS.ValueType.String);
        // '-1' and '+1' stay text: a number cell would read back as a number.
        expect(other.find((row) => row[0] === task.id)![1], text).toBe(expectedCell(text));
      }
    });
  });

  describe('user_details.xlsx', () => {
    /** Keyed by the cleaned e-mail, which stays unique (each starts with its own index). */
    const expected = () => ({
      name: new Map(members.map((m) => [expectedCell(m.email), expectedCell(m.name)])),
      email: new Map(members.map((m) => [expectedCell(m.email), expectedCell(m.email)])),
    });

    it('opens in exceljs with every text cleaned', async () => {
      const { rows } = await readWithExcelJS(await download(USERS));
      // Every person is listed (issue 18): the members and the admin who downloads it.
      expect(rows).toHaveLength(1 + members.length + 1);
      expectColumn('exceljs', rows, 1, 0, expected().name);
      expectColumn('exceljs', rows, 1, 1, expected().email);
    });

    it('opens in read-excel-file with every text cleaned', async () => {
      const rows = await readWithReadExcelFile(await download(USERS));
      expect(rows).toHaveLength(1 + members.length + 1);
      expectColumn('read-excel-file', rows, 1, 0, expected().name);
      expectColumn('read-excel-file', rows, 1, 1, expected().email);
    });

    it('writes names that look like formulas as text cells', async () => {
      const body = await download(USERS);
      expect(checkXmlParts(body).formulas).toBe(0);
      const { rows, types } = await readWithExcelJS(body);
      for (const text of FORMULA_LIKE) {
        const at = rows.findIndex((row) => row[0] === expectedCell(text));
        expect(at, text).toBeGreaterThan(0);
        expect(types[at]![0], text).toBe(ExcelJS.ValueType.String);
      }
    });
  });
});
