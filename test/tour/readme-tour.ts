// The README's tour, read as a script: its ```sh blocks are commands with the output the README shows
// under them (`# …` lines), its ```text transcripts (`$ npm start`, `$ npx pvs listen`) are the
// long-running commands a reader starts in another terminal, and `<!-- tour: NAME -->` comments (not
// shown on the rendered page) mark what the reader does in a browser at that point.
//
// Sample output is matched, not compared: `…` stands for anything, an id with a partial value
// (`ptn_01M7…`) or a whole one for any id of that kind, and a timestamp or a clock time for any.

export interface Command {
  /** The command as the README prints it (continuation lines joined with their backslashes). */
  text: string;
  /** The output shown under it, one string per output line, if any. */
  expected: string[];
  /** The README line the command starts on, for failure messages. */
  line: number;
}

export type Step =
  | { kind: 'commands'; commands: Command[] }
  | { kind: 'transcript'; command: string; expected: string[]; line: number }
  | { kind: 'action'; name: string; line: number };

/** The steps of the README section headed `## A five-minute tour`, in order. */
export function readTour(readme: string): Step[] {
  const lines = readme.split('\n');
  const start = lines.findIndex((l) => l.startsWith('## A five-minute tour'));
  if (start < 0) throw new Error('the README has no "## A five-minute tour" section');
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  const steps: Step[] = [];
  for (let i = start + 1; i < (end < 0 ? lines.length : end); i++) {
    const line = lines[i]!;
    const action = /^<!-- tour: ([a-z-]+) -->$/.exec(line);
    if (action) steps.push({ kind: 'action', name: action[1]!, line: i + 1 });
    const fence = /^```(sh|text)$/.exec(line);
    if (!fence) continue;
    const close = lines.findIndex((l, j) => j > i && l === '```');
    const body = lines.slice(i + 1, close);
    if (fence[1] === 'sh') steps.push({ kind: 'commands', commands: readCommands(body, i + 2) });
    else if (body[0]?.startsWith('$ ')) steps.push({ kind: 'transcript', command: body[0].slice(2), expected: body.slice(1), line: i + 2 });
    i = close;
  }
  return steps;
}

function readCommands(body: string[], firstLine: number): Command[] {
  const commands: Command[] = [];
  for (let i = 0; i < body.length; i++) {
    const line = body[i]!;
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const last = commands.at(-1);
      if (!last) throw new Error(`README line ${firstLine + i}: output before any command`);
      // `#  ` (two spaces) continues the output line above; `# ` starts the next one.
      if (line.startsWith('#  ') && last.expected.length > 0) last.expected[last.expected.length - 1] += line.slice(3);
      else last.expected.push(line.slice(2));
      continue;
    }
    const start = i;
    let text = line;
    while (text.endsWith('\\') && i + 1 < body.length) text += `\n${body[++i]}`;
    commands.push({ text, expected: [], line: firstLine + start });
  }
  return commands;
}

const timestamp = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z`;

/** A regular expression for one line of sample output. */
export function samplePattern(sample: string): RegExp {
  // An id printed with part of its value, or a whole one, stands for any id of its kind.
  const withIds = sample.replace(/\b([a-z]{3,4})_[0-9A-Z]+…/g, '$1_…').replace(/\b([a-z]{3,4})_[0-9A-HJKMNP-TV-Z]{26}\b/g, '$1_…');
  const pieces = withIds.split(/(…|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)/);
  const source = pieces
    .map((piece) => {
      if (piece === '…') return '[\\s\\S]*?';
      if (new RegExp(`^${timestamp}$`).test(piece)) return timestamp;
      // A clock time (a listener's line) stands for any time.
      return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\b\d\d:\d\d:\d\d\b/g, String.raw`\d\d:\d\d:\d\d`);
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/** Whether the output matches the sample lines (a `…` may stand for several lines). */
export function matchesSample(output: string, expected: string[]): boolean {
  return samplePattern(expected.join('\n')).test(output.replace(/\n+$/, ''));
}

/** Reading the README's own port, data folder and command name as the test's. */
export interface Substitutions {
  port: number;
  listenPort: number;
  /** Where the server answers Prometheus (the README shows the default, 9464). */
  metricsPort: number;
  pvs: string;
}

export function substituteSample(text: string, s: Substitutions): string {
  return text
    .replaceAll('localhost:3000', `localhost:${s.port}`)
    .replaceAll('127.0.0.1:3000', `127.0.0.1:${s.port}`)
    .replaceAll('localhost:4000', `localhost:${s.listenPort}`)
    .replaceAll('127.0.0.1:9464', `127.0.0.1:${s.metricsPort}`);
}

export function substituteCommand(text: string, s: Substitutions): string {
  return substituteSample(text, s)
    .replaceAll('npx pvs listen', `${s.pvs} listen --port ${s.listenPort}`)
    .replaceAll('npx pvs ', `${s.pvs} `);
}
