import type { Cart, CheckoutResult, Order, Product, ShippingMethod } from '@headless-commerce/sdk';
import { expect, test } from 'vitest';
import { describeApi } from '../api/support/harness';
import {
  ADDRESS,
  ADDRESS_OUT,
  createSellable,
  expectSdkError,
  isoDate,
  type OurVariant,
  sdkClients,
  tickingClock,
  unique,
  usd,
} from './support';

/**
 * The storefront half of the public client `@headless-commerce/sdk` 0.2.0, driven against a real
 * server on both engines: catalog browsing and auto-pagination, shipping methods, a whole guest
 * cart, checkout, the guest order lookup and a signed-in customer's orders. The values the SDK
 * returns are checked against the field names and types of its declared types (where our contract
 * differs, `mismatches.test.ts` documents it).
 */

describeApi(
  'sdk: storefront catalog',
  (api) => {
    test('products.list / get / getBySlug return our Product; the storefront hides cost and stock counts', async () => {
      const { admin, storefront } = sdkClients(api());
      const tag = unique('tag');
      const { product, variant } = await createSellable(admin, { price: 2500, tags: [tag], on_hand: 7 });
      await admin.variants.adminUpdate(variant.id, { cost_price: 900, compare_at_price: 3000 });

      const page = await storefront.products.list({ tag, limit: 10 });
      expect(page).toEqual({
        data: [expect.any(Object)],
        total_count: 1,
        has_more: false,
        next_cursor: null,
      });
      const listed: Product = page.data[0]!;
      expect(listed).toMatchObject({
        id: product.id,
        name: product.name,
        slug: product.slug,
        description: null,
        type: 'physical',
        status: 'active',
        tags: [tag],
        attributes: {},
        images: [],
        options: [],
        price: usd(2500),
        metadata: {},
        created_at: isoDate,
        updated_at: isoDate,
      });
      const listedVariant = listed.variants[0] as OurVariant;
      expect(listedVariant).toMatchObject({
        id: variant.id,
        product_id: product.id,
        sku: variant.sku,
        barcode: null,
        price: usd(2500),
        compare_at_price: usd(3000),
        cost_price: null,
        weight: null,
        is_active: true,
        option_values: [],
        metadata: {},
        created_at: isoDate,
        updated_at: isoDate,
      });
      expect(listedVariant.inventory).toMatchObject({
        available: 7,
        on_hand: null,
        reserved: null,
        safety_stock: null,
      });

      const got = await storefront.products.get(product.id);
      expect(got).toEqual(listed);
      const bySlug = await storefront.products.getBySlug(product.slug);
      expect(bySlug).toEqual(listed);

      // Draft products are invisible on the storefront: 404 through the SDK.
      await admin.products.adminUpdate(product.id, { status: 'draft' });
      const error = await expectSdkError(storefront.products.get(product.id), 404, 'not_found');
      expect(error.isNotFound).toBe(true);
      expect((await storefront.products.list({ tag })).data).toEqual([]);
    });

    test('products.listAutoPaginate walks every page (for await), newest first, no repeats', async () => {
      const { admin, storefront } = sdkClients(api());
      const tag = unique('page');
      const created: string[] = [];
      for (let i = 0; i < 5; i++) created.push((await createSellable(admin, { tags: [tag] })).product.id);

      const first = await storefront.products.list({ tag, limit: 2 });
      expect(first.data.map((p) => p.id)).toEqual([created[4], created[3]]);
      expect(first.has_more).toBe(true);
      expect(first.next_cursor).toBe(created[3]);

      const seen: string[] = [];
      for await (const product of storefront.products.listAutoPaginate({ tag, limit: 2 }))
        seen.push(product.id);
      expect(seen).toEqual([...created].reverse());

      // Filters and sorts the SDK declares and we serve: q, price bounds, sort=price asc.
      const cheap = await createSellable(admin, { tags: [tag], price: 10, name: unique('Cheapest ') });
      const sorted = await storefront.products.list({ tag, sort: 'price', order: 'asc', limit: 1 });
      expect(sorted.data[0]!.id).toBe(cheap.product.id);
      const bounded = await storefront.products.list({ tag, price_min: 10, price_max: 10 });
      expect(bounded.data.map((p) => p.id)).toEqual([cheap.product.id]);
      const searched = await storefront.products.list({ tag, q: 'cheapest' });
      expect(searched.data.map((p) => p.id)).toEqual([cheap.product.id]);
    });

    test('shipping.list returns the active methods as ShippingMethod (served at /storefront/shipping_methods)', async () => {
      const { admin, storefront } = sdkClients(api());
      const active = await admin.shippingMethods.adminCreate({
        name: unique('Standard '),
        description: 'Two to four days',
        price: 499,
        free_shipping_threshold: 5000,
        position: 1,
      });
      const hidden = await admin.shippingMethods.adminCreate({
        name: unique('Hidden '),
        price: 1,
        is_active: false,
      });
      const { data } = await storefront.shipping.list();
      const listed: ShippingMethod | undefined = data.find((m) => m.id === active.id);
      expect(listed).toEqual({
        id: active.id,
        name: active.name,
        description: 'Two to four days',
        price: usd(499),
        free_shipping_threshold: usd(5000),
        is_active: true,
        position: 1,
        metadata: {},
        created_at: isoDate,
        updated_at: isoDate,
      });
      expect(data.some((m) => m.id === hidden.id)).toBe(false);
    });
  },
  { clock: tickingClock() },
);

describeApi('sdk: storefront carts and checkout', (api) => {
  test('a guest cart through the SDK: create, addItem, updateItem, update, discounts, removeItem, get, getBySession', async () => {
    const { admin, storefront } = sdkClients(api());
    const a = await createSellable(admin, { price: 1000 });
    const b = await createSellable(admin, { price: 250 });
    const method = await admin.shippingMethods.adminCreate({ name: unique('Ship '), price: 500 });
    const code = unique('TEN').toUpperCase();
    await admin.discounts.adminCreate({
      name: 'Ten off',
      code,
      type: 'code',
      value_type: 'percentage',
      value: 10,
    });
    const session = unique('sess_');

    const created: Cart = await storefront.carts.create({ session_id: session, metadata: { source: 'sdk' } });
    expect(created).toEqual({
      id: expect.stringMatching(/^cart_/),
      status: 'active',
      session_id: session,
      customer_id: null,
      items: [],
      shipping_address: null,
      billing_address: null,
      shipping_method_id: null,
      discount_codes: [],
      summary: {
        subtotal: usd(0),
        discount_total: usd(0),
        shipping_total: usd(0),
        tax_total: usd(0),
        total: usd(0),
        item_count: 0,
        total_quantity: 0,
      },
      applied_discounts: [],
      // Beyond the SDK (decisions §21): the shopper's language.
      locale: null,
      // Beyond the SDK (decisions §19): no region (none is the default), the store currency.
      region_id: null,
      currency: 'USD',
      metadata: { source: 'sdk' },
      created_at: isoDate,
      updated_at: isoDate,
    });

    let cart = await storefront.carts.addItem(created.id, { variant_id: a.variant.id, quantity: 2 });
    cart = await storefront.carts.addItem(created.id, { variant_id: b.variant.id }); // quantity defaults to 1
    expect(cart.items).toHaveLength(2);
    const itemA = cart.items.find((i) => i.variant_id === a.variant.id)!;
    expect(itemA).toMatchObject({
      id: expect.stringMatching(/^item_/),
      variant_id: a.variant.id,
      product_id: a.product.id,
      product_name: a.product.name,
      variant_name: a.product.name,
      sku: a.variant.sku,
      image_url: null,
      quantity: 2,
      unit_price: usd(1000),
      line_discount: usd(0),
      line_total: usd(2000),
      metadata: {},
    });
    expect(cart.summary).toMatchObject({ subtotal: usd(2250), item_count: 2, total_quantity: 3 });

    cart = await storefront.carts.updateItem(cart.id, itemA.id, { quantity: 3 });
    expect(cart.items.find((i) => i.id === itemA.id)!.quantity).toBe(3);

    // `update` with the spec's Address (name, …) and a shipping method.
    cart = await storefront.carts.update(cart.id, {
      shipping_address: ADDRESS as never,
      shipping_method_id: method.id,
      metadata: { gift: true },
    });
    expect(cart.shipping_address).toEqual(ADDRESS_OUT);
    expect(cart.shipping_method_id).toBe(method.id);
    expect(cart.metadata).toEqual({ gift: true });
    expect(cart.summary).toMatchObject({ subtotal: usd(3250), shipping_total: usd(500), total: usd(3750) });

    cart = await storefront.carts.applyDiscount(cart.id, { code });
    expect(cart.discount_codes).toEqual([code]);
    expect(cart.applied_discounts).toEqual([
      {
        discount_id: expect.stringMatching(/^disc_/),
        code,
        name: 'Ten off',
        value_type: 'percentage',
        value: 10,
        saved: usd(325),
      },
    ]);
    expect(cart.summary).toMatchObject({ discount_total: usd(325), total: usd(3425) });

    cart = await storefront.carts.removeDiscount(cart.id, code);
    expect(cart.discount_codes).toEqual([]);
    expect(cart.summary.discount_total).toEqual(usd(0));

    const itemB = cart.items.find((i) => i.variant_id === b.variant.id)!;
    cart = await storefront.carts.removeItem(cart.id, itemB.id);
    expect(cart.items.map((i) => i.id)).toEqual([itemA.id]);

    expect(await storefront.carts.get(cart.id)).toEqual(cart);
    expect(await storefront.carts.getBySession(session)).toEqual(cart);
    await expectSdkError(
      storefront.carts.addItem(cart.id, { variant_id: a.variant.id, quantity: 0 }),
      400,
      'parameter_invalid',
    );
  });

  test('checkout.create (guest, manual, the SDK’s `payment_method` name) returns a 201 Order; orders.lookup finds it', async () => {
    const { admin, storefront } = sdkClients(api());
    const { variant, product } = await createSellable(admin, { price: 1500, on_hand: 5 });
    const cart = await storefront.carts.create();
    await storefront.carts.addItem(cart.id, { variant_id: variant.id, quantity: 2 });
    const email = `${unique('guest')}@example.com`;

    const order: CheckoutResult = await storefront.checkout.create(cart.id, {
      email,
      shipping_address: ADDRESS,
      payment_method: 'manual',
      note: 'leave at the door',
      metadata: { channel: 'sdk' },
    });
    expect(order).toMatchObject({
      id: expect.stringMatching(/^ord_/),
      status: 'pending',
      payment_status: 'unpaid',
      fulfillment_status: 'unfulfilled',
      customer_id: null,
      email,
      shipping_address: ADDRESS_OUT,
      billing_address: null,
      subtotal: usd(3000),
      discount_total: usd(0),
      shipping_total: usd(0),
      tax_total: usd(0),
      total: usd(3000),
      refunded_total: usd(0),
      applied_discounts: [],
      shipping_method_name: null,
      note: 'leave at the door',
      metadata: { channel: 'sdk' },
      currency: 'USD',
      cancel_reason: null,
      created_at: isoDate,
      updated_at: isoDate,
      confirmed_at: null,
      cancelled_at: null,
      completed_at: null,
      payment: null,
    });
    // The spec's integer order number (the SDK's Order type says string).
    expect(Number.isInteger(order.number)).toBe(true);
    expect(order.lines).toEqual([
      {
        id: expect.stringMatching(/^line_/),
        variant_id: variant.id,
        product_id: product.id,
        product_name: product.name,
        variant_name: product.name,
        sku: variant.sku,
        image_url: null,
        quantity: 2,
        fulfilled_quantity: 0,
        refunded_quantity: 0,
        // decisions §18: nothing has shipped, nothing to return yet.
        returnable_quantity: 0,
        unit_price: usd(1500),
        line_discount: usd(0),
        line_total: usd(3000),
        tax_amount: usd(0),
        option_values: {},
      },
    ]);
    const full = order as unknown as Order;
    expect(full.payments).toEqual([
      expect.objectContaining({
        provider: 'manual',
        status: 'pending',
        amount: usd(3000),
        order_id: order.id,
      }),
    ]);
    expect(full.fulfillments).toEqual([]);
    expect(full.refunds).toEqual([]);
    expect((await storefront.carts.get(cart.id)).status).toBe('completed');

    const found = await storefront.orders.lookup({ number: order.number, email: email.toUpperCase() });
    // The order as checkout answered it, without `payment` (the checkout answer's alone).
    const { payment: _payment, ...shown } = order;
    expect(found).toEqual(shown);
    await expectSdkError(
      storefront.orders.lookup({ number: order.number, email: 'other@example.com' }),
      404,
      'not_found',
    );
    // A completed cart cannot change: 409 cart_not_active.
    await expectSdkError(
      storefront.carts.addItem(cart.id, { variant_id: variant.id }),
      409,
      'cart_not_active',
    );
  });

  test('a signed-in customer (adminCreateToken + the customerToken option): cart, checkout, orders.list / get / listAutoPaginate, merge', async () => {
    const { admin, storefront, storefrontAs } = sdkClients(api());
    const { variant } = await createSellable(admin, { price: 800 });
    const email = `${unique('buyer')}@example.com`;
    const customer = await admin.customers.adminCreate({ email, first_name: 'Grace' });
    const issued = await admin.customers.adminCreateToken(customer.id);
    expect(issued).toEqual({
      token: expect.stringMatching(/^ct_/),
      customer_id: customer.id,
      expires_at: isoDate,
    });
    const signedIn = storefrontAs(issued.token);

    expect(await signedIn.customers.me()).toMatchObject({ id: customer.id, email, first_name: 'Grace' });

    const orders: Order[] = [];
    for (let i = 0; i < 3; i++) {
      const cart = await signedIn.carts.create();
      expect(cart.customer_id).toBe(customer.id);
      await signedIn.carts.addItem(cart.id, { variant_id: variant.id, quantity: i + 1 });
      // The customer's e-mail is used (docs/contract.md#checkout); the SDK's type requires one, so pass it.
      const order = await signedIn.checkout.create(cart.id, { email, shipping_address: ADDRESS });
      expect(order).toMatchObject({ customer_id: customer.id, email, status: 'pending' });
      orders.push(order as unknown as Order);
    }

    const page = await signedIn.orders.list({ limit: 2 });
    expect(page.data.map((o) => o.id)).toEqual([orders[2]!.id, orders[1]!.id]);
    expect(page.has_more).toBe(true);
    const all: string[] = [];
    for await (const order of signedIn.orders.listAutoPaginate({ limit: 2 })) all.push(order.id);
    expect(all).toEqual(orders.map((o) => o.id).reverse());
    expect((await signedIn.orders.list({ status: 'cancelled' })).data).toEqual([]);

    const one = await signedIn.orders.get(orders[0]!.id);
    expect(one).toMatchObject({ id: orders[0]!.id, number: orders[0]!.number, customer_id: customer.id });

    // Another customer's token does not see these orders; no token at all is a 401.
    const other = await admin.customers.adminCreate({ email: `${unique('other')}@example.com` });
    const otherClient = storefrontAs((await admin.customers.adminCreateToken(other.id)).token);
    await expectSdkError(otherClient.orders.get(orders[0]!.id), 404, 'not_found');
    expect((await otherClient.orders.list()).data).toEqual([]);
    const anonymous = await expectSdkError(storefront.orders.list(), 401, 'customer_token_required');
    expect(anonymous.isAuthError).toBe(true);

    // setCustomerToken on a plain storefront client works the same.
    const later = sdkClients(api()).storefront;
    later.setCustomerToken(issued.token);
    expect((await later.orders.list({ limit: 1 })).data[0]!.id).toBe(orders[2]!.id);

    // merge: the SDK's `merge(target, { source_cart_id })` (docs/contract.md#cart-merge): the guest cart
    // goes into the customer's cart and is abandoned (more in served-carts-webhooks.test.ts).
    const guest = await storefront.carts.create();
    await storefront.carts.addItem(guest.id, { variant_id: variant.id });
    const mine = await signedIn.carts.create();
    const merged = await signedIn.carts.merge(mine.id, { source_cart_id: guest.id });
    expect(merged).toMatchObject({ id: mine.id, customer_id: customer.id, status: 'active' });
    expect(merged.items.map((i) => [i.variant_id, i.quantity])).toEqual([[variant.id, 1]]);
    expect((await storefront.carts.get(guest.id)).status).toBe('abandoned');
  });
});
