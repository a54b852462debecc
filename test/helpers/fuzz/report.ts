// A failed fuzz case written so that whoever reads the CI log can see what was sent, what came back,
// and run that case again: the seed, the case's index and the replay commands.
import { describeCase, type FuzzCase } from './cases.ts';
import type { Answer } from './oracle.ts';
import type { FuzzOperation } from './operations.ts';
import type { BuiltRequest } from './request.ts';

/** Text as a JSON string (control characters visible), cut at `max` characters. */
function clip(text: string, max = 500): string {
  const shown = JSON.stringify(text.length > max ? text.slice(0, max) : text);
  return text.length > max ? `${shown}… (${text.length} chars)` : shown;
}

export function describeFailure(
  run: { seed: number; index: number; file: string; op: FuzzOperation; fuzzCase: FuzzCase; request: BuiltRequest },
  answer: Answer,
  why: string,
): string {
  const { seed, index, file, op, fuzzCase, request } = run;
  // Credentials are cut short: the log is for reading, not for replaying with someone's token.
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([k, v]) => [k, k === 'authorization' ? `${v.slice(0, 16)}…` : v.length > 200 ? `${v.slice(0, 200)}… (${v.length} chars)` : v]),
  );
  return [
    `case ${index} of seed ${seed}: ${op.key} ${why}`,
    `  case:     ${describeCase(fuzzCase)}`,
    `  request:  ${request.method} ${clip(request.url)}`,
    `  headers:  ${JSON.stringify(headers)}`,
    `  body:     ${request.payload ? clip(request.payload.toString('utf8')) : '(none)'}`,
    `  response: ${answer.statusCode} ${String(answer.headers['content-type'] ?? '')} ${clip(answer.body)}`,
    `  replay this case alone:  FUZZ_SEED=${seed} FUZZ_CASE=${index} npm test -- ${file}`,
    `  replay the run up to it: FUZZ_SEED=${seed} FUZZ_RUNS=${index + 1} npm test -- ${file}`,
  ].join('\n');
}
