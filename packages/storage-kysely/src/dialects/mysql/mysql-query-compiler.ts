import {
  AliasNode,
  ColumnUpdateNode,
  type FromNode,
  type InsertQueryNode,
  MysqlQueryCompiler,
  OnDuplicateKeyNode,
  ReferenceNode,
  type SelectModifierNode,
  type SelectQueryNode,
  TableNode,
} from 'kysely';

/**
 * The index whose order a claim (`… order by … limit n for update skip locked`) of each table
 * walks. Without it InnoDB may scan the table and sort (small tables always do), locking every
 * matching row rather than the n it returns — and a concurrent claim then skips them all.
 */
const CLAIM_ORDER_INDEX: Readonly<Record<string, string>> = {
  events: 'events_undispatched_idx',
  webhook_deliveries: 'webhook_deliveries_due_idx',
};

/**
 * Kysely's MySQL compiler, taught the few Postgres/SQLite forms the shared repositories write:
 *
 * - `on conflict (…) do nothing` → `on duplicate key update <first column> = <first column>`
 *   (a no-op that locks the existing row exclusively), or `insert ignore` when it has
 *   `returning` (which then lists the inserted rows only);
 * - `on conflict (…) do update set c = excluded.c` → `on duplicate key update c = values(c)`
 *   (a conflict on ANY unique key then updates: the tables written this way have one);
 * - `for no key update` → `for update` (InnoDB has one kind of row write lock);
 * - `for update of <table>` → `for update` (MariaDB has no `of`; the statements lock one table);
 * - `cast(… as bigint)` → `cast(… as signed)`;
 * - `like … escape '\'` → `escape '\\'` (a backslash escapes in MariaDB string literals);
 * - a claim (`order by … limit … skip locked`) walks its table's index in order
 *   ({@link CLAIM_ORDER_INDEX}: `force index for order by`).
 *
 * `update … returning` is not a compiler matter: mysql-dialect.ts runs it as statements.
 */
export class MariadbQueryCompiler extends MysqlQueryCompiler {
  #inConflictUpdate = false;
  #inClaim = false;

  protected override visitSelectQuery(node: SelectQueryNode): void {
    const outer = this.#inClaim;
    this.#inClaim =
      node.limit !== undefined &&
      node.orderBy !== undefined &&
      (node.endModifiers ?? []).some((modifier) => modifier.modifier === 'SkipLocked');
    try {
      super.visitSelectQuery(node);
    } finally {
      this.#inClaim = outer;
    }
  }

  protected override visitFrom(node: FromNode): void {
    if (!this.#inClaim) {
      super.visitFrom(node);
      return;
    }
    this.append('from ');
    node.froms.forEach((from, i) => {
      if (i > 0) this.append(', ');
      this.visitNode(from);
      const table = AliasNode.is(from) ? from.node : from;
      const index = TableNode.is(table) ? CLAIM_ORDER_INDEX[table.table.identifier.name] : undefined;
      if (index) this.append(` force index for order by (${index})`);
    });
  }

  protected override visitInsertQuery(node: InsertQueryNode): void {
    const { onConflict: conflict, ...rest } = node;
    if (!conflict) {
      super.visitInsertQuery(node);
      return;
    }
    const first = rest.columns?.[0];
    if (conflict.doNothing && !rest.returning && first) {
      // Not `insert ignore`: on a duplicate it takes a shared lock on the existing row, and two
      // transactions that then lock that row for update deadlock (the order counter's first
      // use). A no-op `on duplicate key update` takes the row's exclusive lock instead.
      super.visitInsertQuery({
        ...rest,
        onDuplicateKey: OnDuplicateKeyNode.create([
          ColumnUpdateNode.create(first, ReferenceNode.create(first)),
        ]),
      });
      return;
    }
    if (conflict.doNothing) {
      super.visitInsertQuery({
        ...rest,
        orAction: Object.freeze({ kind: 'OrActionNode', action: 'ignore' }) as never,
      });
      return;
    }
    if (conflict.updateWhere) throw new Error('MariaDB: on conflict … do update … where is not supported');
    this.#inConflictUpdate = true;
    try {
      super.visitInsertQuery({
        ...rest,
        onDuplicateKey: OnDuplicateKeyNode.create(conflict.updates ?? []),
      });
    } finally {
      this.#inConflictUpdate = false;
    }
  }

  protected override visitReference(node: ReferenceNode): void {
    const table = node.table?.table.identifier.name;
    if (this.#inConflictUpdate && table === 'excluded') {
      this.append('values(');
      this.visitNode(node.column);
      this.append(')');
      return;
    }
    super.visitReference(node);
  }

  protected override visitSelectModifier(node: SelectModifierNode): void {
    if (node.modifier === 'ForNoKeyUpdate' || (node.modifier === 'ForUpdate' && node.of)) {
      this.append('for update');
      return;
    }
    super.visitSelectModifier(node);
  }

  protected override append(str: string): void {
    let text = str;
    if (this.#inConflictUpdate) text = text.replace(/\bexcluded\.(\w+)/g, 'values($1)');
    if (text.includes(' as bigint)')) text = text.replaceAll(' as bigint)', ' as signed)');
    // A backslash ends no string in standard SQL; in MariaDB's default mode it escapes.
    if (text.includes("escape '\\'")) text = text.replaceAll("escape '\\'", "escape '\\\\'");
    super.append(text);
  }
}
