import { CommerceError } from '../shared/errors';

/**
 * The category tree's rules (decisions §17, docs/organising-the-catalog.md#categories), pure:
 * a tree per store and mode, at most {@link MAX_CATEGORY_DEPTH} levels deep (a root is level 1),
 * no cycles, at most {@link MAX_CATEGORIES} categories, siblings ordered by `position`, then
 * `name`, then `id`. The service validates every write against the tree it read under the
 * scope's tree lock, so two concurrent moves can never build a cycle between them.
 */

/** A root is level 1; no category may sit deeper than this. */
export const MAX_CATEGORY_DEPTH = 8;

/** Categories per store and mode. */
export const MAX_CATEGORIES = 2000;

/** Categories one product may belong to. */
export const MAX_PRODUCT_CATEGORIES = 50;

/** What the rules need of a category. */
export interface TreeNode {
  id: string;
  parent_id: string | null;
}

/** What sibling order needs of a category. */
export interface OrderedNode extends TreeNode {
  name: string;
  position: number;
}

/** Sibling order: `position`, then `name`, then `id` (code point order, as the storage's keys). */
export function compareSiblings(a: OrderedNode, b: OrderedNode): number {
  if (a.position !== b.position) return a.position - b.position;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The tree of a store and mode as read: parents and children by id. */
export class CategoryTree<N extends TreeNode = TreeNode> {
  readonly #byId = new Map<string, N>();
  readonly #children = new Map<string | null, N[]>();

  constructor(nodes: Iterable<N>) {
    for (const node of nodes) this.#byId.set(node.id, node);
    for (const node of this.#byId.values()) {
      // A parent that is not in the tree makes its child a root (never happens in a valid tree).
      const parent = node.parent_id !== null && this.#byId.has(node.parent_id) ? node.parent_id : null;
      const siblings = this.#children.get(parent);
      if (siblings) siblings.push(node);
      else this.#children.set(parent, [node]);
    }
  }

  get size(): number {
    return this.#byId.size;
  }

  /** Every category, in no particular order. */
  all(): IterableIterator<N> {
    return this.#byId.values();
  }

  get(id: string): N | undefined {
    return this.#byId.get(id);
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  /** The children of `id` (of the roots with `null`), unordered. */
  childrenOf(id: string | null): readonly N[] {
    return this.#children.get(id) ?? [];
  }

  /** The level of `id`: 1 for a root. Stops at a cycle (which the rules never let in). */
  depthOf(id: string): number {
    let depth = 0;
    const seen = new Set<string>();
    for (let at: string | null = id; at !== null && !seen.has(at); ) {
      seen.add(at);
      depth++;
      const parent: string | null = this.#byId.get(at)?.parent_id ?? null;
      at = parent !== null && this.#byId.has(parent) ? parent : null;
    }
    return depth;
  }

  /** Levels of the subtree under (and including) `id`: 1 for a leaf. */
  heightOf(id: string): number {
    let height = 0;
    let level: string[] = [id];
    const seen = new Set<string>();
    while (level.length > 0) {
      height++;
      const next: string[] = [];
      for (const at of level) {
        if (seen.has(at)) continue;
        seen.add(at);
        for (const child of this.childrenOf(at)) next.push(child.id);
      }
      level = next.filter((child) => !seen.has(child));
    }
    return height;
  }

  /** `id` and every category below it. */
  subtreeIds(id: string): string[] {
    const ids: string[] = [];
    const seen = new Set<string>();
    const stack = [id];
    while (stack.length > 0) {
      const at = stack.pop() as string;
      if (seen.has(at) || !this.#byId.has(at)) continue;
      seen.add(at);
      ids.push(at);
      for (const child of this.childrenOf(at)) stack.push(child.id);
    }
    return ids;
  }

  /** Whether `ancestor` is `id` itself or above it. */
  isSelfOrAncestor(ancestor: string, id: string): boolean {
    const seen = new Set<string>();
    for (let at: string | null = id; at !== null && !seen.has(at); ) {
      if (at === ancestor) return true;
      seen.add(at);
      at = this.#byId.get(at)?.parent_id ?? null;
    }
    return false;
  }
}

function invalidParent(message: string): CommerceError {
  return new CommerceError('invalid_parent', message, { param: 'parent_id' });
}

/**
 * A new category under `parentId` (null: a root). The parent must be in the tree (404 `not_found`,
 * `param: parent_id`), the new level at most {@link MAX_CATEGORY_DEPTH} (422 `invalid_parent`),
 * and the scope must have room (400 `parameter_invalid`).
 */
export function checkCreate(tree: CategoryTree, parentId: string | null): void {
  if (tree.size >= MAX_CATEGORIES) {
    throw new CommerceError(
      'parameter_invalid',
      `A store may have at most ${MAX_CATEGORIES} categories per mode`,
      { param: 'name' },
    );
  }
  if (parentId === null) return;
  if (!tree.has(parentId)) throw parentNotFound(parentId);
  if (tree.depthOf(parentId) + 1 > MAX_CATEGORY_DEPTH) {
    throw invalidParent(`A category may be at most ${MAX_CATEGORY_DEPTH} levels deep`);
  }
}

/**
 * Moving `id` (and its subtree) under `parentId` (null: to the root). The parent must be in the
 * tree (404), must not be `id` nor below it (422 `invalid_parent`: a cycle), and the subtree's
 * deepest category must stay within {@link MAX_CATEGORY_DEPTH} levels (422 `invalid_parent`).
 */
export function checkMove(tree: CategoryTree, id: string, parentId: string | null): void {
  if (parentId === null) {
    if (tree.heightOf(id) > MAX_CATEGORY_DEPTH) {
      throw invalidParent(`A category may be at most ${MAX_CATEGORY_DEPTH} levels deep`);
    }
    return;
  }
  if (parentId === id) throw invalidParent('A category cannot be its own parent');
  if (!tree.has(parentId)) throw parentNotFound(parentId);
  if (tree.isSelfOrAncestor(id, parentId)) {
    throw invalidParent('A category cannot be moved under one of its own descendants');
  }
  if (tree.depthOf(parentId) + tree.heightOf(id) > MAX_CATEGORY_DEPTH) {
    throw invalidParent(
      `A category may be at most ${MAX_CATEGORY_DEPTH} levels deep (this move would put its subtree at level ${
        tree.depthOf(parentId) + tree.heightOf(id)
      })`,
    );
  }
}

/** Deleting `id`: refused while it has children (409 `category_has_children`). */
export function checkDelete(tree: CategoryTree, id: string): void {
  const children = tree.childrenOf(id).length;
  if (children > 0) {
    throw new CommerceError(
      'category_has_children',
      `The category has ${children} ${children === 1 ? 'child' : 'children'}: move or delete them first`,
    );
  }
}

function parentNotFound(parentId: string): CommerceError {
  return new CommerceError('not_found', `No such category: '${parentId}'`, { param: 'parent_id' });
}

/** A category with its subtree nested in `children`, siblings in order at every level. */
export type Nested<N> = N & { children: Nested<N>[] };

/**
 * The nested tree: the roots (or, with `rootId`, that category alone) with their subtrees,
 * siblings ordered by {@link compareSiblings} at every level, in O(n log n) (recursion at most
 * {@link MAX_CATEGORY_DEPTH} deep).
 */
export function nest<N extends OrderedNode, W>(
  tree: CategoryTree<N>,
  toWire: (node: N, children: W[]) => W,
  rootId: string | null = null,
): W[] {
  const build = (node: N): W => {
    const children = [...tree.childrenOf(node.id)].sort(compareSiblings).map(build);
    return toWire(node, children);
  };
  if (rootId !== null) {
    const root = tree.get(rootId);
    return root ? [build(root)] : [];
  }
  return [...tree.childrenOf(null)].sort(compareSiblings).map(build);
}
