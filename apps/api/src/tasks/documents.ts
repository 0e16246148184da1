import { createHash } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { cardDescription, type Task } from '@task-manager/shared';
import { isPostgres } from '../db/database.js';
import type { Database, TasksTable } from '../db/tables.js';
import type { JsonText } from '../http/json-text.js';

/**
 * A page of tasks as the JSON text the API sends, built by the database in one statement: each
 * task's row, assignees, checklist, links, labels and files, with each engine's own JSON
 * functions (SQLite's json_object / json_group_array, PostgreSQL's json_build_object / json_agg).
 *
 * Why (docs/performance.md, issue 19): reading a page's children as rows costs a JavaScript
 * object per row (about 900 for a page of 100) that is then grouped, mapped into tasks and
 * serialised again by JSON.stringify; here the database writes the text once and the API only
 * joins it. The answer is the same task, key for key and in the same order, as the row-by-row
 * reference gives (test/helpers/task-reference.ts; the parity test in
 * test/api/task-documents.test.ts holds the two together); only the whitespace between tokens
 * may differ by engine.
 */

/** The functions of each engine's JSON dialect used below. */
interface JsonDialect {
  object(...pairs: Array<[string, RawBuilder<unknown>]>): RawBuilder<unknown>;
  /** The JSON array of `value` over `from`, in `orderBy` order; `[]` when nothing matches. */
  array(
    value: RawBuilder<unknown>,
    from: RawBuilder<unknown>,
    orderBy: RawBuilder<unknown>,
  ): RawBuilder<unknown>;
  /** A JSON boolean from an integer column holding 0 or 1. */
  flag(column: RawBuilder<unknown>): RawBuilder<unknown>;
  /** The whole expression as text (PostgreSQL's driver would parse a json column). */
  text(json: RawBuilder<unknown>): RawBuilder<string>;
}

const pairsOf = (pairs: Array<[string, RawBuilder<unknown>]>) =>
  sql.join(pairs.map(([key, value]) => sql`${sql.lit(key)}, ${value}`));

const sqliteJson: JsonDialect = {
  object: (...pairs) => sql`json_object(${pairsOf(pairs)})`,
  // An aggregate's ORDER BY (SQLite 3.44 and later) fixes the order of the array's elements.
  array: (value, from, orderBy) =>
    sql`(select json_group_array(${value} order by ${orderBy}) from ${from})`,
  flag: (column) => sql`json(case when ${column} = 1 then 'true' else 'false' end)`,
  text: (json) => sql<string>`${json}`,
};

const postgresJson: JsonDialect = {
  object: (...pairs) => sql`json_build_object(${pairsOf(pairs)})`,
  array: (value, from, orderBy) =>
    sql`coalesce((select json_agg(${value} order by ${orderBy}) from ${from}), '[]'::json)`,
  flag: (column) => sql`(${column} = 1)`,
  text: (json) => sql<string>`(${json})::text`,
};

export type Shape = 'task' | 'card';

const col = (name: string) => sql.ref(name);

/** An assignee: the deactivated mark only on a deactivated person, everyone else's as before. */
function assigneeJson(json: JsonDialect) {
  const pairs: Array<[string, RawBuilder<unknown>]> = [
    ['_id', col('u.id')],
    ['name', col('u.name')],
    ['email', col('u.email')],
    ['profileImageUrl', col('u.profile_image_url')],
  ];
  return sql`case when ${col('u.active')} = 0
    then ${json.object(...pairs, ['deactivated', json.flag(sql`1`)])}
    else ${json.object(...pairs)} end`;
}

function assigneesOf(json: JsonDialect) {
  return json.array(
    assigneeJson(json),
    sql`task_assignees ta join users u on u.id = ta.user_id where ta.task_id = t.id`,
    sql`ta.position`,
  );
}

function labelsOf(json: JsonDialect) {
  return json.array(
    json.object(['_id', col('l.id')], ['name', col('l.name')], ['color', col('l.color')]),
    sql`task_labels tl join labels l on l.id = tl.label_id where tl.task_id = t.id`,
    sql`l.name_key`,
  );
}

/** The task's own columns from priority on, as both shapes start. */
const headColumns = (): Array<[string, RawBuilder<unknown>]> => [
  ['priority', col('t.priority')],
  ['status', col('t.status')],
  ['progress', col('t.progress')],
  ['dueDate', col('t.due_date')],
  ['createdBy', col('t.created_by')],
];

function taskJson(json: JsonDialect) {
  return json.object(
    ['_id', col('t.id')],
    ['title', col('t.title')],
    ['description', col('t.description')],
    ...headColumns(),
    ['assignedTo', assigneesOf(json)],
    [
      'todoChecklist',
      json.array(
        json.object(
          ['_id', col('i.id')],
          ['text', col('i.text')],
          ['completed', json.flag(col('i.completed'))],
        ),
        sql`todo_items i where i.task_id = t.id`,
        sql`i.position`,
      ),
    ],
    [
      'attachments',
      json.array(col('a.url'), sql`attachments a where a.task_id = t.id`, sql`a.position`),
    ],
    ['completedTodoCount', col('t.completed_todo_count')],
    ['labels', labelsOf(json)],
    [
      'files',
      json.array(
        json.object(
          ['_id', col('f.id')],
          ['taskId', col('f.task_id')],
          ['name', col('f.name')],
          ['size', col('f.size')],
          ['contentType', col('f.content_type')],
          ['uploadedBy', col('f.uploaded_by')],
          ['createdAt', col('f.created_at')],
        ),
        sql`task_files f where f.task_id = t.id and f.complete = 1`,
        sql`f.created_at, f.id`,
      ),
    ],
    ['createdAt', col('t.created_at')],
    ['updatedAt', col('t.updated_at')],
  );
}

/**
 * What a card holds after its description (which `cardDescription` shortens here, in the same
 * way as everywhere else): counts instead of the checklist, links and files.
 */
function cardTailJson(json: JsonDialect) {
  const count = (from: RawBuilder<unknown>) => sql`(select count(*) from ${from})`;
  return json.object(
    ...headColumns(),
    ['assignedTo', assigneesOf(json)],
    ['completedTodoCount', col('t.completed_todo_count')],
    ['todoDone', col('t.completed_todo_count')],
    ['todoTotal', count(sql`todo_items i where i.task_id = t.id`)],
    ['attachmentCount', count(sql`attachments a where a.task_id = t.id`)],
    ['fileCount', count(sql`task_files f where f.task_id = t.id and f.complete = 1`)],
    ['labels', labelsOf(json)],
    ['createdAt', col('t.created_at')],
    ['updatedAt', col('t.updated_at')],
  );
}

/**
 * The SQL of a shape's JSON expression for `db`'s engine, and the key its stored texts go by. It
 * holds no parameter (its keys are literals), so it is built and compiled once per engine and
 * shape, then reused as text: building the expression tree on every call cost about as much as
 * running a one-task statement. The key names the shape and a digest of that SQL, so that a
 * version of the app that writes a task differently never reads a text stored by another.
 */
const compiledShapes = new Map<string, { text: string; key: string }>();
function shapeSql(db: Kysely<Database>, shape: Shape) {
  const postgres = isPostgres(db);
  const engineShape = `${postgres ? 'postgres' : 'sqlite'} ${shape}`;
  let compiledShape = compiledShapes.get(engineShape);
  if (compiledShape === undefined) {
    const json = postgres ? postgresJson : sqliteJson;
    // Without plugins: what is compiled here is a piece of a query, not one to run or record.
    const expression = json.text(shape === 'task' ? taskJson(json) : cardTailJson(json));
    const compiled = expression.compile(db.withoutPlugins());
    if (compiled.parameters.length > 0) throw new Error(`the ${shape} JSON takes no parameter`);
    const digest = createHash('sha256').update(compiled.sql).digest('hex').slice(0, 12);
    compiledShape = { text: compiled.sql, key: `${shape}:${digest}` };
    compiledShapes.set(engineShape, compiledShape);
  }
  return { build: sql.raw<string>(compiledShape.text), key: compiledShape.key };
}

const SHAPES: readonly Shape[] = ['task', 'card'];

/**
 * Drops the stored texts of shapes this version does not write (left by an earlier version),
 * which nothing would read again. Run at start-up, after migrating.
 */
export async function forgetOutdatedDocuments(db: Kysely<Database>): Promise<number> {
  const current = SHAPES.map((shape) => shapeSql(db, shape).key);
  const result = await db
    .deleteFrom('task_documents')
    .where('shape', 'not in', current)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Rows of `ids` back in the order of `ids` (a missing id, deleted meanwhile, is left out). */
function inOrder<T extends { id: string }>(ids: readonly string[], rows: T[]): T[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The texts could not be stored, which loses nothing (they are answered, and built again next
 * time): SQLite's write lock held by another process or a file that takes no write; PostgreSQL's
 * read-only transaction (a standby), or a deadlock or serialisation failure between two readers
 * storing the same texts.
 */
const cannotStore = (error: unknown) =>
  /^(SQLITE_(BUSY|LOCKED|READONLY)|25006|40001|40P01)/.test(
    String((error as { code?: unknown }).code),
  );

type Document = { id: string; doc: string };

/**
 * The `shape` texts of tasks `ids` (in no order; deleted tasks left out). Each engine keeps each
 * text once built (task_documents; migrations 2026-11-27-501, 2026-11-29-614 and 2026-11-29-612,
 * whose triggers forget it on any write to what it shows): the stored ones are read as they are,
 * and only the rest are built (and stored, each engine its own safe way).
 */
async function documentsOf(
  db: Kysely<Database>,
  shape: Shape,
  ids: readonly string[],
  { unstored = false }: { unstored?: boolean } = {},
): Promise<Document[]> {
  const { build, key } = shapeSql(db, shape);
  // A PostgreSQL transaction forgets what it changes only at its commit: inside one, a stored
  // text may be older than the transaction's own writes, so every text is built there.
  if (isPostgres(db) && db.isTransaction) return (await postgresBuilt(db, build, ids)).rows;
  if (unstored) {
    return isPostgres(db)
      ? builtOnPostgres(db, key, build, ids)
      : builtOnSqlite(db, key, build, ids);
  }
  // A forgotten text is NULL on SQLite (migration 2026-11-29-614): none.
  const { rows: stored } = await sql<Document>`
    select task_id as id, document as doc from task_documents
    where shape = ${key} and task_id in (${sql.join(ids)}) and document is not null`.execute(db);
  if (stored.length === ids.length) return stored;
  const found = new Set(stored.map((row) => row.id));
  const missing = ids.filter((id) => !found.has(id));
  const built = isPostgres(db)
    ? await builtOnPostgres(db, key, build, missing)
    : await builtOnSqlite(db, key, build, missing);
  return [...stored, ...built];
}

/**
 * SQLite: built and stored by one INSERT ... SELECT, so what is stored is exactly what the
 * database answered at that instant (one writer at a time). Should the file not take the write
 * (another process's long write, a read-only file), they are built without being stored.
 */
async function builtOnSqlite(
  db: Kysely<Database>,
  key: string,
  build: RawBuilder<string>,
  ids: readonly string[],
): Promise<Document[]> {
  try {
    const { rows } = await sql<Document>`
      insert into task_documents (task_id, shape, document)
      select t.id, ${key}, ${build} from tasks t where t.id in (${sql.join(ids)})
      on conflict (task_id, shape) do update set document = excluded.document
      returning task_id as id, document as doc`.execute(db);
    return rows;
  } catch (error) {
    if (!cannotStore(error)) throw error;
    const { rows } = await sql<Document>`
      select t.id, ${build} as doc from tasks t where t.id in (${sql.join(ids)})`.execute(db);
    return rows;
  }
}

/** PostgreSQL, outside a transaction: built by one statement, then stored (storeOnPostgres). */
async function builtOnPostgres(
  db: Kysely<Database>,
  key: string,
  build: RawBuilder<string>,
  ids: readonly string[],
): Promise<Document[]> {
  const built = await postgresBuilt(db, build, ids);
  await storeOnPostgres(db, key, built);
  return built.rows;
}

/** Texts built on PostgreSQL, with the data version their statement saw. */
export interface BuiltDocuments {
  version: number;
  rows: Document[];
}

/** Builds the texts of `ids` and reads the data version in one statement: one snapshot. */
async function postgresBuilt(
  db: Kysely<Database>,
  build: RawBuilder<string>,
  ids: readonly string[],
): Promise<BuiltDocuments> {
  const { rows } = await sql<Document & { version: number }>`
    select (select version from data_version where id = 1) as version, t.id, ${build} as doc
    from tasks t where t.id in (${sql.join(ids)})`.execute(db);
  return { version: rows[0]?.version ?? 0, rows: rows.map(({ id, doc }) => ({ id, doc })) };
}

/**
 * PostgreSQL: stores `built` only while the data version is still the one they were built at,
 * checked under a share lock of its row (migration 2026-11-29-612). A writer forgets texts at its
 * commit while holding that row's lock: so no write committed since they were built, and any
 * write that commits later forgets them. A row locked by a committing writer is skipped: nothing
 * is stored and nobody waits. Whether they were stored.
 */
export async function storeOnPostgres(
  db: Kysely<Database>,
  key: string,
  built: BuiltDocuments,
): Promise<boolean> {
  if (built.rows.length === 0) return false;
  // In one order, so that two readers storing the same texts never wait for each other in turn.
  const rows = [...built.rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  try {
    const result = await sql`
      with unchanged as (
        select 1 from data_version where id = 1 and version = ${built.version}
        for share skip locked
      )
      insert into task_documents (task_id, shape, document)
      select stored.id, ${key}, stored.doc
      from unnest(${rows.map((row) => row.id)}::text[], ${rows.map((row) => row.doc)}::text[])
        with ordinality as stored (id, doc, n)
      cross join unchanged
      order by stored.n
      on conflict (task_id, shape) do nothing`.execute(db);
    return Number(result.numAffectedRows ?? 0) > 0;
  } catch (error) {
    if (!cannotStore(error)) throw error;
    return false;
  }
}

/**
 * The texts of `ids` as PostgreSQL builds them now, with the version they were built at, and the
 * key they are stored by: for tests of storeOnPostgres.
 */
export async function buildPostgresDocuments(
  db: Kysely<Database>,
  shape: Shape,
  ids: readonly string[],
): Promise<BuiltDocuments & { key: string }> {
  const { build, key } = shapeSql(db, shape);
  return { ...(await postgresBuilt(db, build, ids)), key };
}

/**
 * Task `before` (as taskDocuments answered it, in the writing transaction) after a write that
 * changed nothing but its items' completed flags, and what those make of the task: the state
 * columns of `row`, the task row as the write left it. The same task taskJson builds, key for
 * key and in the same order, without the statement that builds it (about 0.1 ms of SQLite in a
 * checklist tick, docs/performance.md); test/api/task-documents.test.ts holds the two together.
 * On SQLite the text is stored as a built one would be (keepTaskDocument).
 */
export function afterFlagsWrite(
  before: Task,
  row: Pick<TasksTable, 'status' | 'progress' | 'completed_todo_count' | 'updated_at'>,
  completed: ReadonlyMap<string, boolean>,
): Task {
  return {
    ...before,
    status: row.status,
    progress: row.progress,
    todoChecklist: before.todoChecklist.map((item) => ({
      ...item,
      completed: completed.get(item._id) ?? item.completed,
    })),
    completedTodoCount: row.completed_todo_count,
    updatedAt: row.updated_at,
  };
}

/**
 * Keeps `text` as task `id`'s stored answer, in the writing transaction that made it (after its
 * last write to what the answer shows). SQLite only: a PostgreSQL write forgets the texts it
 * touches at its commit (migration 2026-11-29-612), so one stored inside it would not last.
 */
export async function keepTaskDocument(
  trx: Kysely<Database>,
  id: string,
  text: JsonText,
): Promise<void> {
  if (isPostgres(trx)) return;
  const { key } = shapeSql(trx, 'task');
  try {
    await sql`
      insert into task_documents (task_id, shape, document) values (${id}, ${key}, ${text})
      on conflict (task_id, shape) do update set document = excluded.document`.execute(trx);
  } catch (error) {
    if (!cannotStore(error)) throw error;
  }
}

/** Tasks `ids` as the API's JSON (the `Task` shape), in the order of `ids`. */
export async function taskDocuments(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<JsonText[]> {
  if (ids.length === 0) return [];
  return inOrder(ids, await documentsOf(db, 'task', ids)).map((row) => row.doc as JsonText);
}

/**
 * Task `id`, created in this transaction, as the API's JSON: it has no stored text yet, so none
 * is looked for (built, and stored on SQLite). Undefined if there is no such task.
 */
export async function newTaskDocument(
  trx: Kysely<Database>,
  id: string,
): Promise<JsonText | undefined> {
  const [row] = await documentsOf(trx, 'task', [id], { unstored: true });
  return row?.doc as JsonText | undefined;
}

/** Tasks `ids` as cards (the `TaskCard` shape, `?view=card`), in the order of `ids`. */
export async function taskCardDocuments(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<JsonText[]> {
  if (ids.length === 0) return [];
  // The stored part of a card is what follows its description, which `cardDescription` cuts.
  const { rows: heads } = await sql<{ id: string; title: string; description: string }>`
    select t.id, t.title, t.description from tasks t where t.id in (${sql.join(ids)})`.execute(db);
  const tails = new Map((await documentsOf(db, 'card', ids)).map((row) => [row.id, row.doc]));
  return inOrder(ids, heads).flatMap((row) => {
    const tail = tails.get(row.id);
    if (tail === undefined) return [];
    // The tail is an object: its opening brace gives way to the first three keys.
    return `{"_id":${JSON.stringify(row.id)},"title":${JSON.stringify(row.title)},"description":${JSON.stringify(
      cardDescription(row.description),
    )},${tail.slice(tail.indexOf('{') + 1)}` as JsonText;
  });
}
