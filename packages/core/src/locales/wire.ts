import type { StoreLocaleRecord, TranslationRecord } from '../ports/storage';
import { iso } from '../shared/wire-format';
import type { StoreLocale, Translation } from './schemas';

/** The StoreLocale resource (decisions §21). */
export function storeLocaleToWire(record: StoreLocaleRecord): StoreLocale {
  return {
    id: record.id,
    locale: record.locale,
    name: record.name,
    is_default: record.is_default,
    is_active: record.is_active,
    created_at: iso(record.created_at),
  };
}

/** The Translation resource (decisions §21). */
export function translationToWire(record: TranslationRecord): Translation {
  return {
    id: record.id,
    entity_type: record.entity_type,
    entity_id: record.entity_id,
    locale: record.locale,
    field: record.field,
    value: record.value,
    created_at: iso(record.created_at),
    updated_at: iso(record.updated_at),
  };
}
