// Checking an admin command's input, the same in the CLI process (before anything is opened) and in the
// server's admin endpoint (which a CLI process on the same machine calls): first the text rules every
// input from outside meets (platform/text-safety.ts), then the command's schema. Options are single-line
// text: nothing an operator types into `--name` or a file path has any business holding a control character.
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import { inspectDocument, type ShapeLimits } from '../platform/text-safety.ts';
import { type AdminCommand, fileArgument } from './commands.ts';

/** A few options typed by an operator; the commands' schemas set the tighter bounds. */
const adminInputLimits: ShapeLimits = { maxDepth: 3, maxArrayItems: 50, maxObjectKeys: 20, maxStringLength: 4_096 };

export interface AdminInputProblem {
  /** A JSON Pointer into the input (the admin endpoint's body). */
  pointer: string;
  /** Names the option as the operator typed it: `--name contains a NUL character (U+0000) at position 1`. */
  message: string;
}

/** The first thing wrong with the input, or undefined when the command can run with it. */
export function checkAdminInput(command: AdminCommand, input: unknown): AdminInputProblem | undefined {
  const [text] = inspectDocument(input, adminInputLimits, { multiline: false, max: 1 });
  if (text) return { pointer: text.pointer, message: `${describeField(command, input, text.pointer)} ${text.message}` };
  if (Value.Check(command.input, input)) return undefined;
  const first = Value.Errors(command.input, input).First();
  const pointer = first?.path ?? '';
  return { pointer, message: `${describeField(command, input, pointer)}: ${first ? inWords(first) : 'not accepted'}` };
}

/** A failed pattern or format in its schema's own words (`x-message`, as on HTTP: validation.ts), else TypeBox's. */
function inWords(error: ValueError): string {
  const own = (error.schema as Record<string, unknown>)['x-message'];
  const wordable = error.type === ValueErrorType.StringFormat || error.type === ValueErrorType.StringPattern;
  return wordable && typeof own === 'string' ? own : error.message;
}

/** `--name`, `--dob (dateOfBirth)`, `--categories item 2`, `the file path "/srv/a\u0001.csv"`. */
function describeField(command: AdminCommand, input: unknown, pointer: string): string {
  const [field, item] = pointer.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (field === undefined) return 'The input';
  const option = command.options[field];
  if (option === undefined) return `The field ${JSON.stringify(field)}`;
  const value = (input as Record<string, unknown>)[field];
  // The CLI resolves a relative path, so a position counts in a path the operator did not type: show it.
  // JSON.stringify escapes control characters and lone surrogates, so the path prints as what it holds.
  if (option === fileArgument) return typeof value === 'string' && value.length <= 1_024 ? `${option} ${JSON.stringify(value)}` : option;
  const named = option === `--${field}` || !option.startsWith('--') ? option : `${option} (${field})`;
  return item === undefined ? named : `${named} item ${Number(item) + 1}`;
}
