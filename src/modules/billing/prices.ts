// The price list, from configuration: integer cents (AUD), per product and, for lookups, per scope.
import type { Config } from '../../config.ts';

/** What a charge is for. A lookup's scope is part of its product, so reconciliation can tell them apart. */
export const products = ['BUSINESS_LOOKUP_FULL', 'BUSINESS_LOOKUP_ASIC_ONLY', 'BUSINESS_LOOKUP_UBO_ONLY', 'DEED_ANALYSIS', 'VERIFICATION_INDIVIDUAL'] as const;
export type Product = (typeof products)[number];

export type LookupScope = 'FULL' | 'ASIC_ONLY' | 'UBO_ONLY';

export function lookupProduct(scope: LookupScope): Product {
  return `BUSINESS_LOOKUP_${scope}`;
}

/** How the hosted card page names each product to the card holder. */
export const productLabels: Record<Product, string> = {
  BUSINESS_LOOKUP_FULL: 'Business lookup with beneficial owners',
  BUSINESS_LOOKUP_ASIC_ONLY: 'Business lookup (register details)',
  BUSINESS_LOOKUP_UBO_ONLY: 'Beneficial ownership lookup',
  DEED_ANALYSIS: 'Trust deed analysis',
  VERIFICATION_INDIVIDUAL: 'Identity verification, per person',
};

export type PriceList = Readonly<Record<Product, number>>;

/** The settings the price list is read from. */
export type PriceSettings = Pick<Config, 'PRICE_LOOKUP_FULL' | 'PRICE_LOOKUP_ASIC_ONLY' | 'PRICE_LOOKUP_UBO_ONLY' | 'PRICE_DEED_ANALYSIS' | 'PRICE_VERIFICATION_INDIVIDUAL'>;

export function priceListFrom(config: PriceSettings): PriceList {
  return Object.freeze({
    BUSINESS_LOOKUP_FULL: config.PRICE_LOOKUP_FULL,
    BUSINESS_LOOKUP_ASIC_ONLY: config.PRICE_LOOKUP_ASIC_ONLY,
    BUSINESS_LOOKUP_UBO_ONLY: config.PRICE_LOOKUP_UBO_ONLY,
    DEED_ANALYSIS: config.PRICE_DEED_ANALYSIS,
    VERIFICATION_INDIVIDUAL: config.PRICE_VERIFICATION_INDIVIDUAL,
  });
}

/** `$15.00` */
export function formatCents(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
