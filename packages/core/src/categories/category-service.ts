import { slugify } from '../catalog/slug';
import { BASE_TEXT, type ReadLanguage } from '../locales/negotiate';
import { namedIn } from '../locales/records';
import type { CategoryRecord, Repositories, Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { errors } from '../shared/errors';
import { read, write } from '../shared/unit-of-work';
import type {
  AdminCategoryListParams,
  Category,
  CategoryTreeResponse,
  CreateCategoryInput,
  UpdateCategoryInput,
} from './schemas';
import { CategoryTree, checkCreate, checkDelete, checkMove, nest } from './tree';
import { categoryToWire } from './wire';

/** The slug a new category gets: the one given, else derived from the name, else from its id (as products, §9). */
export function slugForCategory(input: { slug?: string | undefined; name: string }, id: string): string {
  if (input.slug !== undefined) return input.slug;
  const derived = slugify(input.name);
  return derived === '' ? slugify(id) : derived;
}

/**
 * The longest prepared storefront tree kept in the tree row (characters); a longer one (2,000
 * categories with very long descriptions) is built at each read instead.
 */
const MAX_TREE_DOCUMENT = 4_000_000;

/** The category with `slug` in a nested tree (depth first), or undefined. */
function findNested(nodes: readonly Category[], slug: string): Category | undefined {
  for (const node of nodes) {
    if (node.slug === slug) return node;
    const found = findNested(node.children, slug);
    if (found) return found;
  }
  return undefined;
}

/**
 * Categories (decisions §17, docs/organising-the-catalog.md#categories): a tree per store and
 * mode. Every write takes the scope's tree lock (`categories.lockTree`) and then validates
 * against the whole tree read after it (categories/tree.ts), so concurrent moves are judged one
 * after the other and can never leave a cycle. Reading the tree is one statement; the nesting is
 * built here. Every write also stores the storefront tree as prepared JSON in base text
 * (`categories.saveTreeDocument`, in its transaction): the storefront reads it with one
 * primary-key read instead of rebuilding 2,000 nodes per request.
 */
export function createCategoryService(ctx: ServiceContext) {
  /** The scope's tree, read in `tx` (after the lock when writing). */
  async function treeOf(tx: Repositories, scope: Scope): Promise<CategoryTree<CategoryRecord>> {
    return new CategoryTree(await tx.categories.all(scope));
  }

  /** The scope's tree with names and descriptions in `language` (decisions §21; siblings by the names shown). */
  async function treeIn(
    tx: Repositories,
    scope: Scope,
    language: ReadLanguage,
  ): Promise<CategoryTree<CategoryRecord>> {
    return new CategoryTree(await namedIn(tx, scope, 'category', language, await tx.categories.all(scope)));
  }

  /** Rebuilds the stored storefront tree after a write (the tree lock is held). */
  async function saveTreeDocument(tx: Repositories, scope: Scope): Promise<void> {
    const text = JSON.stringify({ data: nest(await treeOf(tx, scope), categoryToWire) });
    await tx.categories.saveTreeDocument(scope, text.length <= MAX_TREE_DOCUMENT ? text : null);
  }

  /** The storefront tree's prepared JSON: the stored one in base text, else built now. */
  async function treeText(scope: Scope, language: ReadLanguage): Promise<string> {
    return read(ctx, async (tx) => {
      if (language.translate === null) {
        const stored = await tx.categories.treeDocument(scope);
        if (stored !== null) return stored;
      }
      return JSON.stringify({ data: nest(await treeIn(tx, scope, language), categoryToWire) });
    });
  }

  /** `record` with its whole subtree as `tree` holds it. */
  function withSubtree(tree: CategoryTree<CategoryRecord>, record: CategoryRecord): Category {
    const [nested] = nest(tree, categoryToWire, record.id);
    return { ...categoryToWire(record), children: nested?.children ?? [] };
  }

  return {
    /** `POST /v1/admin/categories`. Emits `category.created`. */
    async create(scope: Scope, input: CreateCategoryInput): Promise<Category> {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        await tx.categories.lockTree(scope);
        const parentId = input.parent_id ?? null;
        checkCreate(await treeOf(tx, scope), parentId);
        const id = ctx.ids.next('cat');
        const record: CategoryRecord = {
          id,
          store_id: scope.store_id,
          mode: scope.mode,
          parent_id: parentId,
          name: input.name,
          slug: slugForCategory(input, id),
          description: input.description ?? null,
          position: input.position,
          metadata: input.metadata,
          created_at: now,
          updated_at: now,
        };
        await tx.categories.insert(record);
        await saveTreeDocument(tx, scope);
        const wire = categoryToWire(record);
        work.emit(scope, 'category.created', categoryToWire(record));
        return wire;
      });
    },

    /** `GET /v1/admin/categories`: newest first; `parent_id` = an id, or `null` for the roots. */
    async list(scope: Scope, query: AdminCategoryListParams) {
      const filter =
        query.parent_id === undefined
          ? {}
          : { parent_id: query.parent_id === 'null' ? null : query.parent_id };
      const page = await read(ctx, (tx) =>
        tx.categories.list(scope, filter, {
          limit: query.limit,
          starting_after: query.starting_after,
          sort: 'created_at',
          order: query.order,
        }),
      );
      return { ...page, data: page.data.map((record) => categoryToWire(record)) };
    },

    /** `GET /v1/admin/categories/{id}`: the category with its whole subtree. */
    async get(scope: Scope, id: string): Promise<Category> {
      const tree = await read(ctx, (tx) => treeOf(tx, scope));
      const record = tree.get(id);
      if (!record) throw errors.notFound('category', id);
      return withSubtree(tree, record);
    },

    /**
     * `PATCH /v1/admin/categories/{id}`: the fields given replace the stored ones (`metadata` as a
     * whole); `parent_id` moves it with its subtree (`null`: to the root), checked against the
     * tree read under the lock. Emits `category.updated`.
     */
    async update(scope: Scope, id: string, input: UpdateCategoryInput): Promise<Category> {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        await tx.categories.lockTree(scope);
        const tree = await treeOf(tx, scope);
        if (!tree.has(id)) throw errors.notFound('category', id);
        if (input.parent_id !== undefined) checkMove(tree, id, input.parent_id);
        const updated = await tx.categories.update(scope, id, {
          updated_at: now,
          ...(input.parent_id !== undefined && { parent_id: input.parent_id }),
          ...(input.name !== undefined && { name: input.name }),
          ...(input.slug !== undefined && { slug: input.slug }),
          ...(input.description !== undefined && { description: input.description }),
          ...(input.position !== undefined && { position: input.position }),
          ...(input.metadata !== undefined && { metadata: input.metadata }),
        });
        if (!updated) throw errors.notFound('category', id);
        await saveTreeDocument(tx, scope);
        work.emit(scope, 'category.updated', categoryToWire(updated));
        // Its subtree is unchanged by the move: the tree read before holds it.
        return withSubtree(tree, updated);
      });
    },

    /**
     * `DELETE /v1/admin/categories/{id}`: refused while it has children (409
     * `category_has_children`); it is removed from every product that holds it. Emits
     * `category.deleted` with the category as it was.
     */
    async delete(scope: Scope, id: string): Promise<{ id: string; deleted: true }> {
      return write(ctx, scope, async (work) => {
        const { tx, now } = work;
        await tx.categories.lockTree(scope);
        const tree = await treeOf(tx, scope);
        const record = tree.get(id);
        if (!record) throw errors.notFound('category', id);
        checkDelete(tree, id);
        if (!(await tx.categories.delete(scope, id, now))) throw errors.notFound('category', id);
        await saveTreeDocument(tx, scope);
        work.emit(scope, 'category.deleted', categoryToWire(record));
        return { id, deleted: true as const };
      });
    },

    /** `GET /v1/storefront/categories`: the whole tree, roots with nested children. */
    async tree(scope: Scope, language: ReadLanguage = BASE_TEXT): Promise<CategoryTreeResponse> {
      return JSON.parse(await treeText(scope, language)) as CategoryTreeResponse;
    },

    /** {@link tree} as prepared JSON text (the HTTP route sends it as is). */
    treeJson(scope: Scope, language: ReadLanguage = BASE_TEXT): Promise<string> {
      return treeText(scope, language);
    },

    /** `GET /v1/storefront/categories/by-slug/{slug}`: the category with its subtree (404 if unknown). */
    async getBySlug(scope: Scope, slug: string, language: ReadLanguage = BASE_TEXT): Promise<Category> {
      const { data } = JSON.parse(await treeText(scope, language)) as CategoryTreeResponse;
      const found = findNested(data, slug);
      if (!found) throw errors.notFound('category', slug);
      return found;
    },
  };
}

export type CategoryService = ReturnType<typeof createCategoryService>;
