// One bash process the tour's commands run in, one after another, as in a reader's terminal: variables a
// command sets are there for the next. Each command's output (stdout and stderr together) and exit
// status come back separately, cut at a marker line the command cannot print.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export interface Ran {
  output: string;
  status: number;
}

export class Shell {
  private readonly child: ChildProcess;
  private buffer = '';
  private readonly marker = `__tour_${randomBytes(6).toString('hex')}__`;
  private waiting: ((ran: Ran) => void) | undefined;

  constructor(cwd: string, env: Record<string, string>) {
    this.child = spawn('bash', ['--noprofile', '--norc'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => this.take(chunk));
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => this.take(chunk));
    // A pipeline fails when any part of it does, as `set -o pipefail` makes it in a careful script.
    this.child.stdin!.write('set -o pipefail\n');
  }

  /** Runs one command; one at a time, as a terminal does. */
  run(command: string, timeoutMs = 60_000): Promise<Ran> {
    if (this.waiting) throw new Error('the shell is still running the previous command');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the command did not finish within ${timeoutMs} ms:\n${command}\n--- output so far\n${this.buffer}`)), timeoutMs);
      this.waiting = (ran) => {
        clearTimeout(timer);
        resolve(ran);
      };
      // Braces, not a subshell: assignments stay in the shell. stderr joins stdout, as a terminal shows both.
      this.child.stdin!.write(`{ ${command}\n} 2>&1; printf '\\n${this.marker} %s\\n' "$?"\n`);
    });
  }

  /** A variable's value in the shell (what `echo "$NAME"` prints). */
  async variable(name: string): Promise<string> {
    const ran = await this.run(`printf '%s' "$${name}"`);
    return ran.output;
  }

  close(): void {
    this.child.stdin!.end();
    this.child.kill('SIGKILL');
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    const match = new RegExp(`\\n?${this.marker} (\\d+)\\n`).exec(this.buffer);
    if (!match || !this.waiting) return;
    const ran = { output: this.buffer.slice(0, match.index), status: Number(match[1]) };
    this.buffer = this.buffer.slice(match.index + match[0].length);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting(ran);
  }
}
