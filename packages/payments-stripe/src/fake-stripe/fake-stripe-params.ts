import { invalidRequest } from './fake-stripe-error';
import type { FormObject, FormValue } from './form-encoding';

/**
 * Readers for form-encoded params, answering the way Stripe's API validates them
 * (`parameter_unknown`, `parameter_missing`, `parameter_invalid_integer`, …).
 */
export function rejectUnknown(params: FormObject, allowed: readonly string[]): void {
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) {
      throw invalidRequest(`Received unknown parameter: ${key}`, { code: 'parameter_unknown', param: key });
    }
  }
}

export function optionalString(params: FormObject, name: string): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw invalidRequest(`Invalid string: ${name}`, { code: 'parameter_invalid_string', param: name });
  }
  return value;
}

export function requiredString(params: FormObject, name: string): string {
  const value = optionalString(params, name);
  if (value === undefined || value === '') {
    throw invalidRequest(`Missing required param: ${name}.`, { code: 'parameter_missing', param: name });
  }
  return value;
}

/** A positive integer (Stripe's amounts), or `undefined` when absent. */
export function optionalPositiveInteger(params: FormObject, name: string): number | undefined {
  const value = optionalString(params, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw invalidRequest(`Invalid positive integer`, { code: 'parameter_invalid_integer', param: name });
  }
  return Number(value);
}

export function requiredPositiveInteger(params: FormObject, name: string): number {
  const value = optionalPositiveInteger(params, name);
  if (value === undefined) {
    throw invalidRequest(`Missing required param: ${name}.`, { code: 'parameter_missing', param: name });
  }
  return value;
}

export function optionalBoolean(params: FormObject, name: string): boolean | undefined {
  const value = optionalString(params, name);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') {
    throw invalidRequest(`Invalid boolean: ${value}`, { code: 'parameter_invalid_boolean', param: name });
  }
  return value === 'true';
}

export function optionalEnum<T extends string>(
  params: FormObject,
  name: string,
  values: readonly T[],
): T | undefined {
  const value = optionalString(params, name);
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value)) {
    throw invalidRequest(`Invalid ${name}: must be one of ${values.join(', ')}`, { param: name });
  }
  return value as T;
}

/** `metadata[key]=value` pairs: string values only, keys ≤ 40 chars, values ≤ 500 chars. */
export function optionalMetadata(params: FormObject, name = 'metadata'): Record<string, string> {
  const value: FormValue | undefined = params[name];
  if (value === undefined || value === '') return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidRequest(`Invalid object`, { code: 'parameter_invalid_object', param: name });
  }
  const metadata: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== 'string') {
      throw invalidRequest(`Invalid value for ${name}[${key}]: must be a string`, {
        param: `${name}[${key}]`,
      });
    }
    if (key.length > 40 || entry.length > 500) {
      throw invalidRequest(`Metadata keys are limited to 40 characters and values to 500`, {
        param: `${name}[${key}]`,
      });
    }
    if (entry !== '') metadata[key] = entry;
  }
  return metadata;
}

/** An array of strings (`payment_method_types[0]=card`). */
export function optionalStringArray(params: FormObject, name: string): string[] | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
    throw invalidRequest(`Invalid array`, { code: 'parameter_invalid_array', param: name });
  }
  return value as string[];
}
