import type {
  CompiledQuery,
  Kysely,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import type { Database } from '../../src/db/tables.js';

/**
 * The same database, recording every query run through it as the SQL the engine receives, with
 * its parameters. Transactions opened on it record too. Hand `db` to the code under test (a
 * repository function, or createApp), then read `queries`.
 */
export function captureQueries(base: Kysely<Database>) {
  const queries: CompiledQuery[] = [];
  const recorder: KyselyPlugin = {
    transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
      queries.push(base.getExecutor().compileQuery(node, queryId));
      return node;
    },
    async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      return result;
    },
  };
  return {
    db: base.withPlugin(recorder),
    queries,
    /** The queries recorded so far, and a fresh start. */
    take(): CompiledQuery[] {
      return queries.splice(0, queries.length);
    },
  };
}
