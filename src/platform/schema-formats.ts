// TypeBox's Value.Check (used for event and job payloads) knows no string formats until they are
// registered; it would refuse every `format: 'date-time'`. Register the same checks ajv applies to
// requests, so a payload is judged by one definition of each format everywhere.
import { FormatRegistry } from '@sinclair/typebox';
import formats from 'ajv-formats/dist/formats.js';

for (const name of formats.formatNames) {
  const format = formats.fullFormats[name] as unknown;
  // ajv-formats gives a function, a RegExp, or { validate, compare } whose validate is either.
  const rule = format && typeof format === 'object' && 'validate' in format ? (format as { validate: unknown }).validate : format;
  const check =
    typeof rule === 'function' ? (rule as (v: string) => boolean) : rule instanceof RegExp ? (v: string) => rule.test(v) : undefined;
  if (check && !FormatRegistry.Has(name)) FormatRegistry.Set(name, (value) => check(value) as boolean);
}
