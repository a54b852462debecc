// The ATO payment reference number (PRN, also called the EFT code). The ATO documents its check rules
// only in a guide for digital service providers ("DSP guide to Payment Reference Number (PRN)
// validation", softwaredevelopers.ato.gov.au/PRNvalidation), which could not be read when this was
// written: what is checked here is what CONTRACT §9 states, 12 to 18 digits (docs/payments.md).
// A PRN can be built from a tax file number, so it is treated like one: never logged, never sent
// to the payment gateway, kept sealed at rest.

export const prnLength = { min: 12, max: 18 };

/** The PRN as digits, or what is wrong with it in words. Spaces (as printed on notices) are removed. */
export function readPrn(text: string): { ok: true; prn: string } | { ok: false; message: string } {
  const digits = text.replace(/ /g, '');
  if (digits.length === 0) return { ok: false, message: 'must hold the payment reference number' };
  if (!/^[0-9]+$/.test(digits)) return { ok: false, message: 'must be digits only (spaces between groups are allowed)' };
  if (digits.length < prnLength.min || digits.length > prnLength.max) {
    return { ok: false, message: `must be ${prnLength.min} to ${prnLength.max} digits long; this one has ${digits.length}` };
  }
  if (/^0+$/.test(digits)) return { ok: false, message: 'cannot be all zeros' };
  return { ok: true, prn: digits };
}
