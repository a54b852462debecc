// The shape of the house, checked from the source files (no database): the arrows point down
// (app/services → modules → providers → platform), nothing imports itself round a cycle, the composition
// root stays short, and every module has its wiring file. See docs/architecture.md.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** A file's static imports and re-exports (`import type` and `export … from` included), resolved to files. */
function importsOf(file: string): string[] {
  // preProcessFile reads import, import type and export … from, and also import('…') calls and types; those
  // are left out on purpose: a lazy load is how a heavy package is kept off the start-up path
  // (docs/architecture.md, "What a process loads"), and it cannot make a cycle of module initialisation.
  const text = readFileSync(file, 'utf8');
  const { importedFiles } = ts.preProcessFile(text, true, false);
  return importedFiles
    .filter((entry) => !/\bimport\s*\(\s*$/.test(text.slice(Math.max(0, entry.pos - 40), entry.pos)))
    .map((entry) => entry.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolveSpecifier(file, spec))
    .filter((target): target is string => target !== undefined);
}

function resolveSpecifier(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

function graphOf(dir: string): Map<string, string[]> {
  const files = sourceFiles(path.join(root, dir));
  const inside = new Set(files);
  return new Map(files.map((file) => [file, importsOf(file).filter((target) => inside.has(target))]));
}

/**
 * One cycle per strongly connected component (every elementary cycle would be too many to list), with the
 * component's other files: breaking the cycle shown may leave another among them.
 */
function cyclesOf(graph: Map<string, string[]>): Array<{ cycle: string[]; members: string[] }> {
  // Tarjan's strongly connected components, then one shortest cycle through each component's first file.
  let index = 0;
  const indices = new Map<string, number>();
  const lowlinks = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    lowlinks.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowlinks.set(node, Math.min(lowlinks.get(node)!, lowlinks.get(next)!));
      } else if (onStack.has(next)) {
        lowlinks.set(node, Math.min(lowlinks.get(node)!, indices.get(next)!));
      }
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfImport = (graph.get(node) ?? []).includes(node);
      if (component.length > 1 || selfImport) components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) visit(node);

  return components.map((component) => ({ cycle: shortestCycle(graph, component), members: [...component].sort() }));
}

function shortestCycle(graph: Map<string, string[]>, component: string[]): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  // Breadth-first from start back to start, within the component: the shortest cycle through it.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const cycle = [start];
        for (let at = node; at !== start; at = previous.get(at)!) cycle.splice(1, 0, at);
        return [...cycle, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

const describeCycles = (cycles: ReturnType<typeof cyclesOf>) =>
  cycles
    .map(({ cycle, members }) => {
      const others = members.filter((member) => !cycle.includes(member));
      return `  ${cycle.map(rel).join(' → ')}${others.length ? `\n    (with ${others.map(rel).join(', ')} in the same knot)` : ''}`;
    })
    .join('\n');

describe('architecture', () => {
  it('providers and platform import nothing above them (modules, web, admin, cli, services, app)', () => {
    const above = ['src/modules/', 'src/web/', 'src/admin/', 'src/cli/', 'src/services.ts', 'src/services.types.ts', 'src/app.ts', 'src/main.ts'];
    const graph = graphOf('src');
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      const from = rel(file);
      if (!from.startsWith('src/providers/') && !from.startsWith('src/platform/')) continue;
      for (const target of targets) if (above.some((prefix) => rel(target).startsWith(prefix))) wrong.push(`  ${from} → ${rel(target)}`);
    }
    assert.equal(wrong.length, 0, `providers/ and platform/ must own the types they speak; these imports point up:\n${wrong.join('\n')}`);
  });

  it('the code that ships (src/, tests aside) imports nothing from test/, bench/ or scripts/', () => {
    // The build compiles src/; a file it reaches outside src/ is emitted beside its source and breaks the package.
    const wrong = sourceFiles(path.join(root, 'src'))
      .filter((file) => !file.endsWith('.test.ts'))
      .flatMap((file) => importsOf(file).filter((target) => /^(test|bench|scripts)\//.test(rel(target))).map((target) => `  ${rel(file)} → ${rel(target)}`));
    assert.deepEqual(wrong, [], `src/ must not depend on what does not ship:\n${wrong.join('\n')}`);
  });

  for (const dir of ['src', 'bench']) {
    it(`has no import cycles among ${dir}/ files (import type and export … from included)`, () => {
      const cycles = cyclesOf(graphOf(dir));
      assert.equal(cycles.length, 0, `${cycles.length} import cycle(s) in ${dir}/:\n${describeCycles(cycles)}`);
    });
  }

  it('keeps the composition root (src/services.ts) under 250 lines', () => {
    const text = readFileSync(path.join(root, 'src/services.ts'), 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    assert.ok(lines < 250, `src/services.ts has ${lines} lines; move a module's wiring into its <domain>.module.ts`);
  });

  it('gives every module under src/modules/ its <name>.module.ts', () => {
    const modules = readdirSync(path.join(root, 'src/modules')).filter((name) => statSync(path.join(root, 'src/modules', name)).isDirectory());
    const missing = modules.filter((name) => !existsSync(path.join(root, 'src/modules', name, `${name}.module.ts`)));
    assert.deepEqual(missing, [], `modules without their wiring file: ${missing.map((name) => `src/modules/${name}/${name}.module.ts`).join(', ')}`);
  });
});
