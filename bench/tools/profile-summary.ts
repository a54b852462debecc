// Summarises V8 CPU profiles (.cpuprofile, from BENCH_PROFILE=1 or `node --cpu-prof`): where the
// process's time went, by package or source area, by function (self time), and by function including
// what it calls. Several files are merged (e.g. every slice of one server).
//
//   node --import tsx bench/tools/profile-summary.ts bench/results/latest-profiles/postgres-partners-me-b-*.cpuprofile
//   BENCH_TOP=40 node --import tsx bench/tools/profile-summary.ts file.cpuprofile
//   BENCH_GREP=helmet node --import tsx bench/tools/profile-summary.ts file.cpuprofile   (inclusive time of matching functions)
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const root = process.cwd();

function area(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const file = url.startsWith('file://') ? new URL(url).pathname : url;
  const nm = file.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = file.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (file.startsWith('node:')) return `node:${file.slice(5).split('/')[0]}`;
  const rel = path.relative(root, file);
  if (!rel.startsWith('..')) return rel.split('/').slice(0, 3).join('/');
  return file;
}

function fnKey(frame: CallFrame): string {
  const file = frame.url.startsWith('file://') ? path.relative(root, new URL(frame.url).pathname) : frame.url;
  return `${frame.functionName || '(anonymous)'}  ${file ? `${file}:${frame.lineNumber + 1}` : ''}`.trim();
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node --import tsx bench/tools/profile-summary.ts FILE.cpuprofile…');
  process.exit(2);
}
const top = Number(process.env.BENCH_TOP ?? 25);

const selfByArea = new Map<string, number>();
const selfByFn = new Map<string, number>();
const totalByFn = new Map<string, number>();
let totalUs = 0;

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Time per sample: the delta to the next sample (V8's convention).
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i]!, (selfUs.get(profile.samples[i]!) ?? 0) + dt);
  }
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    totalUs += us;
    const a = area(node.callFrame.url, node.callFrame.functionName);
    selfByArea.set(a, (selfByArea.get(a) ?? 0) + us);
    const k = fnKey(node.callFrame);
    selfByFn.set(k, (selfByFn.get(k) ?? 0) + us);
    // Inclusive: every distinct function on the stack gets the sample once.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const key = fnKey(byId.get(cur)!.callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      totalByFn.set(key, (totalByFn.get(key) ?? 0) + us);
    }
  }
}

function print(title: string, map: Map<string, number>, n: number, filter: (k: string) => boolean = () => true) {
  console.log(`\n${title}`);
  const rows = [...map.entries()].filter(([k]) => filter(k)).sort((x, y) => y[1] - x[1]).slice(0, n);
  for (const [k, us] of rows) console.log(`${((us / totalUs) * 100).toFixed(1).padStart(6)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
}

const busy = totalUs - (selfByArea.get('(idle)') ?? 0);
console.log(`${files.length} profile(s), ${(totalUs / 1e6).toFixed(2)} s sampled, ${((busy / totalUs) * 100).toFixed(1)} % busy (not idle)`);
print('Self time by area (package, node: module, or source folder):', selfByArea, top);
print('Self time by function:', selfByFn, top);
print('Inclusive time, functions under src/ and bench/:', totalByFn, top, (k) => /\s(src|bench)\//.test(k));
print('Inclusive time, all functions:', totalByFn, top, (k) => !k.startsWith('(root)'));
const grep = process.env.BENCH_GREP;
if (grep) print(`Inclusive time, functions matching /${grep}/:`, totalByFn, top, (k) => new RegExp(grep).test(k));
