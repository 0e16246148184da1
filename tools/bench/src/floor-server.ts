import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { apiDir } from './paths.js';

/**
 * The floor of the task page (issue 19): a minimal hand-written server on plain node:http that
 * answers the admin's first task page (GET /api/tasks, 100 tasks, whole tasks as the API sends
 * them) from the same SQLite file, with raw better-sqlite3 prepared statements and
 * JSON.stringify. It does what the page cannot do without: check the token (HS256, its expiry)
 * and that its user is an active admin, read the page, its children and the counts, and send
 * them. No framework, no validation library, no query builder, no logging: what the API adds on
 * top of this is what `pnpm bench` reports as a share of it. Prints its address once it listens.
 */
const dbFile = process.env.SQLITE_FILE;
const secret = process.env.JWT_SECRET;
if (!dbFile || !secret) {
  console.error('SQLITE_FILE and JWT_SECRET are needed');
  process.exit(2);
}

type Row = Record<string, unknown>;
interface Statement {
  all(...params: unknown[]): Row[];
  get(...params: unknown[]): Row | undefined;
}
interface SqliteDatabase {
  prepare(sql: string): Statement;
  pragma(pragma: string): unknown;
}

/** The API's own driver, so that both read the file with the same SQLite build. */
const Sqlite = createRequire(path.join(apiDir, 'package.json'))('better-sqlite3') as new (
  file: string,
  options?: { readonly?: boolean },
) => SqliteDatabase;
const db = new Sqlite(dbFile, { readonly: true });
db.pragma('journal_mode = WAL');

const PAGE = 100;
const key = Buffer.from(secret, 'utf8');
const userById = db.prepare('select role, active from users where id = ?');
const firstPage = db.prepare(
  `select * from tasks order by created_at desc, id desc limit ${PAGE + 1}`,
);
const counts = db.prepare('select status, sum(count) as count from task_counts group by status');

/** The children's statements for `n` ids, prepared once per n. */
const childStatements = new Map<number, Record<string, Statement>>();
function children(n: number) {
  let statements = childStatements.get(n);
  if (statements) return statements;
  const ids = Array.from({ length: n }, () => '?').join(',');
  statements = {
    assignees: db.prepare(
      `select ta.task_id, u.id, u.name, u.email, u.profile_image_url, u.active
       from task_assignees ta join users u on u.id = ta.user_id
       where ta.task_id in (${ids}) order by ta.task_id, ta.position`,
    ),
    items: db.prepare(
      `select task_id, id, text, completed from todo_items where task_id in (${ids})
       order by task_id, position`,
    ),
    links: db.prepare(
      `select task_id, url from attachments where task_id in (${ids}) order by task_id, position`,
    ),
    labels: db.prepare(
      `select tl.task_id, l.id, l.name, l.color from task_labels tl
       join labels l on l.id = tl.label_id where tl.task_id in (${ids})
       order by tl.task_id, l.name_key`,
    ),
    files: db.prepare(
      `select task_id, id, name, size, content_type, uploaded_by, created_at from task_files
       where task_id in (${ids}) and complete = 1 order by task_id, created_at, id`,
    ),
  };
  childStatements.set(n, statements);
  return statements;
}

function grouped<T>(rows: Row[], map: (row: Row) => T): Map<string, T[]> {
  const byTask = new Map<string, T[]>();
  for (const row of rows) {
    const id = row.task_id as string;
    const list = byTask.get(id);
    if (list) list.push(map(row));
    else byTask.set(id, [map(row)]);
  }
  return byTask;
}

/** The user id of a valid HS256 token, or null. */
function tokenUser(header: string | undefined): string | null {
  if (!header?.startsWith('Bearer ')) return null;
  const [head, body, signature] = header.slice(7).split('.');
  if (!head || !body || !signature) return null;
  const expected = createHmac('sha256', key).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as {
    sub?: string;
    exp?: number;
  };
  if (typeof claims.sub !== 'string' || !(Number(claims.exp) * 1000 > Date.now())) return null;
  return claims.sub;
}

function taskPage(): string {
  const rows = firstPage.all();
  const page = rows.slice(0, PAGE);
  const ids = page.map((row) => row.id as string);
  const statements = children(ids.length || 1);
  const params = ids.length ? ids : [''];
  const assignees = grouped(statements.assignees!.all(...params), (a) => ({
    _id: a.id,
    name: a.name,
    email: a.email,
    profileImageUrl: a.profile_image_url,
    ...(a.active === 0 && { deactivated: true }),
  }));
  const items = grouped(statements.items!.all(...params), (i) => ({
    _id: i.id,
    text: i.text,
    completed: i.completed === 1,
  }));
  const links = grouped(statements.links!.all(...params), (l) => l.url);
  const labels = grouped(statements.labels!.all(...params), (l) => ({
    _id: l.id,
    name: l.name,
    color: l.color,
  }));
  const files = grouped(statements.files!.all(...params), (f) => ({
    _id: f.id,
    taskId: f.task_id,
    name: f.name,
    size: f.size,
    contentType: f.content_type,
    uploadedBy: f.uploaded_by,
    createdAt: f.created_at,
  }));
  const byStatus: Record<string, number> = { Pending: 0, 'In Progress': 0, Completed: 0 };
  for (const row of counts.all()) byStatus[row.status as string] = Number(row.count);
  const last = page.at(-1);
  return JSON.stringify({
    tasks: page.map((row) => {
      const id = row.id as string;
      return {
        _id: id,
        title: row.title,
        description: row.description,
        priority: row.priority,
        status: row.status,
        progress: row.progress,
        dueDate: row.due_date,
        createdBy: row.created_by,
        assignedTo: assignees.get(id) ?? [],
        todoChecklist: items.get(id) ?? [],
        attachments: links.get(id) ?? [],
        completedTodoCount: row.completed_todo_count,
        labels: labels.get(id) ?? [],
        files: files.get(id) ?? [],
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      };
    }),
    statusSummary: {
      all: byStatus.Pending! + byStatus['In Progress']! + byStatus.Completed!,
      pendingTasks: byStatus.Pending,
      inProgressTasks: byStatus['In Progress'],
      completedTasks: byStatus.Completed,
    },
    nextCursor:
      rows.length > PAGE && last
        ? Buffer.from(JSON.stringify([last.created_at, last.id])).toString('base64url')
        : null,
  });
}

const server = http.createServer((req, res) => {
  if (req.method !== 'GET' || req.url !== '/api/tasks') {
    res.writeHead(404).end();
    return;
  }
  const userId = tokenUser(req.headers.authorization);
  const user = userId ? userById.get(userId) : undefined;
  if (!user || user.active !== 1 || user.role !== 'admin') {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Not authorized"}');
    return;
  }
  const body = taskPage();
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') {
    console.log(`floor listening on http://127.0.0.1:${address.port}`);
  }
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
