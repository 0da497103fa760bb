import { z } from 'zod';
import { SlugSchema } from '../catalog/schemas';
import {
  DateTimeSchema,
  IdSchema,
  listOf,
  listQuery,
  MetadataInputSchema,
  MetadataSchema,
  NonNegativeIntegerSchema,
  OptionalLongTextSchema,
  RequiredTextSchema,
} from '../shared/schemas/common';

// ---------------------------------------------------------------- responses

/** A category as the wire shows it, with its whole subtree (decisions §17). */
export type Category = {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  parent_id: string | null;
  position: number;
  /** Its whole subtree, siblings ordered by position, then name, then id. */
  children: Category[];
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
};

/**
 * A category (`cat_…`) of the store and mode's tree, with its whole subtree in `children`
 * (ordered by `position`, then `name`, then `id`). Lists and events show `children: []`.
 */
export const CategorySchema: z.ZodType<Category> = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    parent_id: z.string().nullable(),
    position: z.int(),
    get children(): z.ZodArray<z.ZodType<Category>> {
      return z.array(CategorySchema);
    },
    metadata: MetadataSchema,
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
  })
  .meta({ id: 'Category' });

/** `GET /v1/admin/categories`: newest first, each with `children: []`. */
export const CategoryListSchema = listOf(CategorySchema);
export type CategoryList = z.infer<typeof CategoryListSchema>;

/** `GET /v1/storefront/categories`: the whole tree, roots with nested children, not paged. */
export const CategoryTreeResponseSchema = z
  .object({ data: z.array(CategorySchema) })
  .meta({ id: 'CategoryTreeResponse' });
export type CategoryTreeResponse = z.infer<typeof CategoryTreeResponseSchema>;

// ---------------------------------------------------------------- requests

/** A `parent_id` in a request: a category id, or null for a root. */
const ParentIdSchema = IdSchema.nullable();

/**
 * `POST /v1/admin/categories`: `slug` is derived from the name when left out (as for products)
 * and is unique among the store and mode's categories (409 `duplicate_slug`).
 */
export const CreateCategoryInputSchema = z
  .strictObject({
    name: RequiredTextSchema,
    slug: SlugSchema.optional(),
    description: OptionalLongTextSchema,
    parent_id: ParentIdSchema.optional(),
    position: NonNegativeIntegerSchema.default(0),
    metadata: MetadataInputSchema.default({}),
  })
  .meta({ id: 'CreateCategoryInput' });
export type CreateCategoryInput = z.infer<typeof CreateCategoryInputSchema>;

/** `PATCH /v1/admin/categories/{id}`: the fields given; `parent_id: null` moves it to the root. */
export const UpdateCategoryInputSchema = z
  .strictObject({
    name: RequiredTextSchema.optional(),
    slug: SlugSchema.optional(),
    description: OptionalLongTextSchema,
    parent_id: ParentIdSchema.optional(),
    position: NonNegativeIntegerSchema.optional(),
    metadata: MetadataInputSchema.optional(),
  })
  .meta({ id: 'UpdateCategoryInput' });
export type UpdateCategoryInput = z.infer<typeof UpdateCategoryInputSchema>;

/** `GET /v1/admin/categories`: `parent_id` = a category id, or `null` for the roots. */
export const AdminCategoryListParamsSchema = listQuery(['created_at'], {
  parent_id: IdSchema.optional(),
});
export type AdminCategoryListParams = z.infer<typeof AdminCategoryListParamsSchema>;

/** `GET /v1/storefront/categories/by-slug/{slug}`. */
export const CategorySlugPathSchema = z.object({ slug: z.string().min(1) });
