import {
  type InsertQueryNode,
  MysqlQueryCompiler,
  OnDuplicateKeyNode,
  type ReferenceNode,
  type SelectModifierNode,
} from 'kysely';

/**
 * Kysely's MySQL compiler, taught the few Postgres/SQLite forms the shared repositories write:
 *
 * - `on conflict (…) do nothing` → `insert ignore`;
 * - `on conflict (…) do update set c = excluded.c` → `on duplicate key update c = values(c)`
 *   (a conflict on ANY unique key then updates: the tables written this way have one);
 * - `for no key update` → `for update` (InnoDB has one kind of row write lock);
 * - `for update of <table>` → `for update` (MariaDB has no `of`; the statements lock one table);
 * - `cast(… as bigint)` → `cast(… as signed)`;
 * - `like … escape '\'` → `escape '\\'` (a backslash escapes in MariaDB string literals).
 *
 * `update … returning` is not a compiler matter: mysql-dialect.ts runs it as statements.
 */
export class MariadbQueryCompiler extends MysqlQueryCompiler {
  #inConflictUpdate = false;

  protected override visitInsertQuery(node: InsertQueryNode): void {
    const { onConflict: conflict, ...rest } = node;
    if (!conflict) {
      super.visitInsertQuery(node);
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
