import type { OptionRecord } from '../ports/storage';
import { CommerceError } from '../shared/errors';
import { formatParam } from '../shared/schemas/parse';

/** How a variant names its option values in a request (docs/contract.md#catalog): by name, or by value id. */
export interface VariantOptionReference {
  /** `{ "<option name>": "<value>" }`. */
  options?: Record<string, string> | undefined;
  /** Ids of existing option values of the product. */
  option_value_ids?: string[] | undefined;
}

export interface ResolveOptionsSettings {
  /** Where the variant sits in the request, for `param` (`['variants', 0]`; `[]` for a top-level variant). */
  at: readonly (string | number)[];
}

const byPosition = <T extends { position: number }>(a: T, b: T) => a.position - b.position;

/**
 * Resolves a variant's option reference against its product's options (docs/contract.md#catalog).
 *
 * Rules (every violation is a 400 with the field at fault as `param`):
 * - a product without options takes no option values (`options` must be empty or absent);
 * - a product with options needs exactly one value per option: a missing one →
 *   `parameter_missing` (`options[Size]`), an unknown option name or value id →
 *   `parameter_invalid` (`options[Colour]`, `option_value_ids[1]`), a value the option does not
 *   have → `parameter_invalid` (`options[Size]`, listing the allowed values), two values of one
 *   option → `parameter_invalid`.
 *
 * Decision: a variant added later cannot introduce a new value of an option (`{ Size: 'XL' }`
 * when Size has S, M, L): options and their values are stored only with the product
 * (`products.insert`), so such a value is a 400 like any other unknown reference.
 *
 * Option names and values are compared exactly (after the schemas' trimming). Returns the value
 * ids in the order of the product's options.
 */
export function resolveVariantOptions(
  productOptions: readonly OptionRecord[],
  reference: VariantOptionReference,
  settings: ResolveOptionsSettings,
): string[] {
  const options = [...productOptions].sort(byPosition);
  const param = (...path: (string | number)[]) => formatParam([...settings.at, ...path]);
  if (reference.options !== undefined && reference.option_value_ids !== undefined) {
    throw new CommerceError(
      'parameter_invalid',
      `${param('option_value_ids')} cannot be combined with options`,
      {
        param: param('option_value_ids'),
      },
    );
  }
  if (reference.option_value_ids !== undefined) return byValueIds(options, reference.option_value_ids, param);
  return byNames(options, reference.options, param);
}

function byValueIds(
  options: readonly OptionRecord[],
  ids: readonly string[],
  param: (...path: (string | number)[]) => string,
): string[] {
  const owner = new Map<string, OptionRecord>();
  for (const option of options) for (const value of option.values) owner.set(value.id, option);
  const chosen = new Map<string, string>();
  ids.forEach((id, index) => {
    const option = owner.get(id);
    if (option === undefined) {
      throw new CommerceError(
        'parameter_invalid',
        `${param('option_value_ids', index)} is not an option value of this product`,
        {
          param: param('option_value_ids', index),
        },
      );
    }
    if (chosen.has(option.id)) {
      throw new CommerceError(
        'parameter_invalid',
        `${param('option_value_ids', index)} is a second value of the option '${option.name}'`,
        { param: param('option_value_ids', index) },
      );
    }
    chosen.set(option.id, id);
  });
  const result: string[] = [];
  for (const option of options) {
    const id = chosen.get(option.id);
    if (id === undefined) {
      throw new CommerceError(
        'parameter_missing',
        `${param('option_value_ids')} must include a value of the option '${option.name}'`,
        {
          param: param('option_value_ids'),
        },
      );
    }
    result.push(id);
  }
  return result;
}

function byNames(
  options: readonly OptionRecord[],
  names: Readonly<Record<string, string>> | undefined,
  param: (...path: (string | number)[]) => string,
): string[] {
  const given = names ?? {};
  const known = new Set(options.map((option) => option.name));
  for (const name of Object.keys(given)) {
    if (!known.has(name)) {
      throw new CommerceError(
        'parameter_invalid',
        `${param('options', name)} is not an option of this product`,
        {
          param: param('options', name),
        },
      );
    }
  }
  if (options.length > 0 && names === undefined) {
    throw new CommerceError('parameter_missing', `${param('options')} is required: the product has options`, {
      param: param('options'),
    });
  }
  const ids: string[] = [];
  for (const option of options) {
    const wanted = given[option.name];
    if (wanted === undefined) {
      throw new CommerceError(
        'parameter_missing',
        `${param('options', option.name)} is required: every variant names a value for each option`,
        { param: param('options', option.name) },
      );
    }
    const existing = option.values.find((value) => value.value === wanted);
    if (existing === undefined) {
      const allowed = [...option.values].sort(byPosition).map((value) => value.value);
      throw new CommerceError(
        'parameter_invalid',
        `${param('options', option.name)} must be one of: ${allowed.join(', ')}`,
        {
          param: param('options', option.name),
        },
      );
    }
    ids.push(existing.id);
  }
  return ids;
}

/**
 * Refuses a variant whose option values equal those of another (live) variant of the product:
 * 400 `parameter_invalid` on `param`. Products without options may have several variants.
 */
export function assertUniqueCombination(
  variants: readonly { id: string; option_value_ids: readonly string[] }[],
  optionValueIds: readonly string[],
  exceptVariantId: string | null,
  param: string,
): void {
  if (optionValueIds.length === 0) return;
  const key = [...optionValueIds].sort().join('|');
  const twin = variants.find(
    (variant) => variant.id !== exceptVariantId && [...variant.option_value_ids].sort().join('|') === key,
  );
  if (twin !== undefined) {
    throw new CommerceError(
      'parameter_invalid',
      `${param} duplicates the option values of variant '${twin.id}'`,
      {
        param,
        data: { variant_id: twin.id },
      },
    );
  }
}
