import type { Scope } from '../ports/storage';
import type { ServiceContext } from '../shared/context';
import { CommerceError, errors } from '../shared/errors';
import { write } from '../shared/unit-of-work';
import { buildImage } from './product-records';
import { productChanged, requireProduct } from './product-support';
import type { ImageCreate } from './schemas';
import { type ImageWire, imageToWire } from './wire';

/** A product's images (docs/contract.md#catalog). Changes emit `product.updated`. */
export function createImageCommands(ctx: ServiceContext) {
  return {
    /**
     * `POST /v1/admin/products/{id}/images` → the new Image. `position` defaults to after the
     * product's last image; `variant_ids` (variants of this product, else 400
     * `parameter_invalid` on `variant_ids[i]`) attach it to variants (`Variant.images`).
     */
    async addImage(scope: Scope, productId: string, input: ImageCreate): Promise<ImageWire> {
      return write(ctx, scope, async (work) => {
        const product = await requireProduct(work.tx, scope, productId, { forUpdate: true });
        const variantIds = input.variant_ids ?? [];
        const own = new Set(product.variants.map((variant) => variant.id));
        variantIds.forEach((variantId, index) => {
          if (!own.has(variantId)) {
            throw new CommerceError(
              'parameter_invalid',
              `variant_ids[${index}] is not a variant of this product`,
              {
                param: `variant_ids[${index}]`,
              },
            );
          }
        });
        const next = product.images.reduce((max, image) => Math.max(max, image.position + 1), 0);
        const image = buildImage(input, productId, next, [...new Set(variantIds)], ctx.ids);
        await work.tx.products.insertImage(scope, image);
        await productChanged(work, scope, productId);
        return imageToWire(image);
      });
    },

    /** `DELETE /v1/admin/products/{id}/images/{image_id}`: removes the image from the product and its variants. */
    async deleteImage(
      scope: Scope,
      productId: string,
      imageId: string,
    ): Promise<{ id: string; deleted: true }> {
      return write(ctx, scope, async (work) => {
        const product = await requireProduct(work.tx, scope, productId, { forUpdate: true });
        const known = product.images.some((image) => image.id === imageId);
        if (!known || !(await work.tx.products.deleteImage(scope, productId, imageId))) {
          throw errors.notFound('image', imageId);
        }
        await productChanged(work, scope, productId);
        return { id: imageId, deleted: true as const };
      });
    },
  };
}
