// Structured JSON logs. Secrets, tokens and personal data never reach them: request lines carry the
// route pattern, not the raw URL (hosted links carry tokens in their path), and known secret fields
// are redacted wherever they appear.
import pino, { type Logger } from 'pino';
import { traceIds, tracingOn } from './tracing/spans.ts';

export const redactedPaths = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  '*.authorization',
  '*.client_secret',
  '*.clientSecret',
  '*.access_token',
  '*.accessToken',
  '*.secret',
  '*.password',
  '*.newPassword',
  '*.token',
  '*.sessionToken',
  '*.secretKey',
  '*.SECRET_KEY',
];

/** With tracing on (started before the logger is made), each line written inside a traced request, job or delivery carries its traceId and spanId. */
export function createLogger(options: { level: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'pvs' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
      ...(tracingOn() ? { mixin: traceIds } : {}),
    },
    options.destination,
  );
}

export type { Logger };
