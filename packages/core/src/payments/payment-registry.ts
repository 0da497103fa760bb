import { MAX_PAYMENT_PROVIDER_NAME_LENGTH, PaymentProviderNameSchema } from '../carts/schemas';
import type { PaymentProvider } from '../ports/payment-provider';

/**
 * The engine's payment providers by name (docs/contract.md#checkout): `manual` first (always there unless a
 * provider of that name replaces it), then `providers` in order; a later provider of the same
 * name replaces an earlier one. Checkout accepts exactly these names (`resolveProvider`) and the
 * OpenAPI document lists them.
 *
 * Every name must be a payment provider name as `PaymentProviderNameSchema` defines it
 * (lowercase letters, digits and `_`, starting with a letter, at most 64 characters): anything
 * else throws a `TypeError` when the engine is created, not at the first checkout.
 */
export function createPaymentRegistry(
  manual: PaymentProvider,
  providers: readonly PaymentProvider[] = [],
): Map<string, PaymentProvider> {
  const registry = new Map<string, PaymentProvider>([[manual.name, manual]]);
  for (const provider of providers) {
    const name: unknown = provider?.name;
    if (typeof name !== 'string' || !PaymentProviderNameSchema.safeParse(name).success) {
      throw new TypeError(
        `Invalid payment provider name ${JSON.stringify(name)}: a name is lowercase letters, digits ` +
          `and _, starting with a letter, at most ${MAX_PAYMENT_PROVIDER_NAME_LENGTH} characters (e.g. gift_card)`,
      );
    }
    if (typeof provider.createPayment !== 'function' || typeof provider.refundPayment !== 'function') {
      throw new TypeError(`Payment provider '${name}' must implement createPayment and refundPayment`);
    }
    registry.set(name, provider);
  }
  return registry;
}
