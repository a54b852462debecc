// The sandbox gateway's test cards (CONTRACT §13, with the usual extra brands), and the checks any
// gateway makes of card details before it tokenises them. Pure functions.
import type { CardInput, CardSummary, GatewayDeclined, GatewayInvalidCard } from './gateway.ts';

/** What a saved card does when charged; chosen by the number when it is tokenised. */
export type CardBehaviour = 'succeeds' | 'declines_on_save' | 'insufficient_funds' | 'do_not_honor';

export const testCards: ReadonlyArray<{ number: string; behaviour: CardBehaviour; description: string }> = [
  { number: '4242424242424242', behaviour: 'succeeds', description: 'saves, and every charge succeeds' },
  { number: '5555555555554444', behaviour: 'succeeds', description: 'Mastercard; saves, and every charge succeeds' },
  { number: '378282246310005', behaviour: 'succeeds', description: 'American Express; saves, and every charge succeeds' },
  { number: '4000000000000002', behaviour: 'declines_on_save', description: 'declined when saving or paying (`generic_decline`); nothing is saved or charged' },
  { number: '4000000000009995', behaviour: 'insufficient_funds', description: 'saves; charges decline `insufficient_funds`, merchant advice code 02' },
  { number: '4000000000000341', behaviour: 'do_not_honor', description: 'saves; charges decline `do_not_honor`, merchant advice code 03' },
];

/** How each behaviour declines a charge: the decline code and the network's merchant advice code. */
export const chargeDeclines: Partial<Record<CardBehaviour, { declineCode: string; merchantAdviceCode: string | null; message: string }>> = {
  // Never saved (attach declines it), so this is what paying with it on a payment page answers.
  declines_on_save: { declineCode: 'generic_decline', merchantAdviceCode: null, message: 'Your card was declined.' },
  insufficient_funds: { declineCode: 'insufficient_funds', merchantAdviceCode: '02', message: 'Your card has insufficient funds.' },
  do_not_honor: { declineCode: 'do_not_honor', merchantAdviceCode: '03', message: 'Your card was declined.' },
};

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function brandOf(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  return 'unknown';
}

function invalid(field: GatewayInvalidCard['field'], declineCode: string, message: string): GatewayInvalidCard {
  return { ok: false, kind: 'invalid', field, declineCode, message };
}

/**
 * The checks of a tokenisation request, in the order a gateway makes them. `today` decides expiry:
 * a card is good through the last day of its expiry month.
 */
export function checkCard(card: CardInput, today: Date): { ok: true; digits: string; summary: CardSummary; behaviour: CardBehaviour } | GatewayInvalidCard | GatewayDeclined {
  const digits = card.number.replace(/[\s-]/g, '');
  if (!/^\d{13,19}$/.test(digits) || !passesLuhn(digits)) return invalid('number', 'incorrect_number', 'Your card number is incorrect.');
  if (!Number.isInteger(card.expMonth) || card.expMonth < 1 || card.expMonth > 12) return invalid('expMonth', 'invalid_expiry_month', "Your card's expiration month is invalid.");
  if (!Number.isInteger(card.expYear) || card.expYear < 2000 || card.expYear > 2100) return invalid('expYear', 'invalid_expiry_year', "Your card's expiration year is invalid.");
  const thisMonth = today.getUTCFullYear() * 12 + today.getUTCMonth();
  if (card.expYear * 12 + (card.expMonth - 1) < thisMonth) return invalid('expYear', 'expired_card', 'Your card has expired.');
  const brand = brandOf(digits);
  const cvcLength = brand === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(card.cvc)) return invalid('cvc', 'invalid_cvc', "Your card's security code is invalid.");
  const known = testCards.find((c) => c.number === digits);
  // As a real gateway's test mode does: a card that is not a test card is refused, and not kept.
  if (!known) {
    return { ok: false, kind: 'declined', declineCode: 'test_mode_live_card', merchantAdviceCode: null, message: 'Your card was declined. The sandbox accepts only test cards.' };
  }
  return { ok: true, digits, behaviour: known.behaviour, summary: { brand, last4: digits.slice(-4), expMonth: card.expMonth, expYear: card.expYear } };
}
