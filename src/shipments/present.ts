import { Decimal } from 'decimal.js';
import type { FreightRow, Role } from '../freights/index.ts';
import type { Shipment } from './schema.ts';

export type { Shipment } from './schema.ts';

function decimalOf(value: unknown): Decimal | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  try {
    const d = new Decimal(typeof value === 'string' ? value.trim().replace(',', '.') : value);
    return d.isFinite() && !d.isNegative() ? d : null;
  } catch {
    return null;
  }
}

/** Whole kg, rounded up so a shipment is never planned lighter than it is. Exact (decimal). */
export function wholeUp(value: unknown): number | null {
  const d = decimalOf(value);
  return d ? d.ceil().toNumber() : null;
}

/** Chargeable weight: the larger of weight and volume weight (docs/reference.md#conventions item 8), whole kg up. */
export function chargeableKg(row: Pick<FreightRow, 'weight' | 'weight_volume'>): number | null {
  const values = [decimalOf(row.weight), decimalOf(row.weight_volume)].filter((d): d is Decimal => d !== null);
  if (values.length === 0) return null;
  return Decimal.max(...values)
    .ceil()
    .toNumber();
}

export function capacityCbm(refs: unknown): number | null {
  if (typeof refs !== 'object' || refs === null || Array.isArray(refs)) return null;
  return wholeUp((refs as Record<string, unknown>).capacity);
}

/**
 * Masked like the freight itself (docs/reference.md#freights): a former bidder sees no places; refs (and
 * so the capacity taken from them) only owner and winner see.
 */
export function presentShipment(row: FreightRow, role: Role): Shipment {
  const masked = role === 'bidder';
  return {
    id: row.id,
    from: masked ? null : row.from_code,
    to: masked ? null : row.to_code,
    weight: chargeableKg(row),
    capacity: role === 'owner' || role === 'winner' ? capacityCbm(row.refs) : null,
  };
}
