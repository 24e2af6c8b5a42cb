import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The server's modules form a graph without cycles, in layers (decision 026). Only runtime
 * imports count: `import type` and imports whose every name is a type vanish from the build.
 * ESLint's import/no-cycle works file by file and misses a ring that passes through several
 * files of one module, so this test works on modules.
 */

const sourceRoot = path.dirname(fileURLToPath(import.meta.url));

/** Core modules: the car, its bookings and lifecycle, accounts. They import no feature module. */
const core = ['categories', 'listings', 'bookings', 'users', 'auth'];
/** Features build on the core, and hear of its changes through domain events (lib/events.ts). */
const features = [
  'search',
  'saved',
  'messages',
  'payments',
  'admin',
  'stats',
  'price-guide',
  'vin',
  'sellers',
  'payouts',
  'exports',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return ['test', 'bench'].includes(entry.name) && dir === sourceRoot ? [] : sourceFiles(full);
    }
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test') ? [full] : [];
  });
}

/** `modules/<name>` for a module's files, the top folder (`db`, `lib` ...) or file (`app`) else. */
function moduleOf(file: string): string {
  const parts = path.relative(sourceRoot, file).split(path.sep);
  if (parts[0] === 'modules') return `modules/${parts[1]}`;
  return parts.length === 1 ? parts[0]!.replace(/\.tsx?$/, '') : parts[0]!;
}

/** The relative specifiers a file imports at runtime: static, re-exported or dynamic. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const typesOnly =
        clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          named &&
          ts.isNamedImports(named) &&
          named.elements.length > 0 &&
          named.elements.every((element) => element.isTypeOnly));
      if (!typesOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      !node.isTypeOnly &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((specifier) => specifier.startsWith('.'));
}

/** Module -> module -> the file-level imports behind that edge ("a.ts -> b.ts"). */
function moduleGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles(sourceRoot)) {
    const from = moduleOf(file);
    const edges = graph.get(from) ?? graph.set(from, new Map()).get(from)!;
    for (const specifier of runtimeImports(file)) {
      const target = path.resolve(path.dirname(file), specifier);
      const to = moduleOf(target);
      if (to === from) continue;
      const why = `${path.relative(sourceRoot, file)} -> ${path.relative(sourceRoot, target)}`;
      (edges.get(to) ?? edges.set(to, []).get(to)!).push(why);
    }
  }
  return graph;
}

/** Every cycle's modules, one per strongly connected component (Tarjan), as a closed path. */
function cycles(graph: Map<string, Map<string, string[]>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const connect = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  // Within a component, the shortest way from its first module back to itself.
  return components.map((component) => {
    const start = component[0]!;
    const previous = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const node = queue.shift()!;
      for (const next of graph.get(node)?.keys() ?? []) {
        if (!component.includes(next)) continue;
        if (next === start) {
          const ring = [start];
          for (let at = node; at !== start; at = previous.get(at)!) ring.splice(1, 0, at);
          return [...ring, start, `(all of: ${component.join(', ')})`];
        }
        if (!previous.has(next)) {
          previous.set(next, node);
          queue.push(next);
        }
      }
    }
    return component;
  });
}

describe('the server module graph', () => {
  const graph = moduleGraph();

  it('sees the modules it checks', () => {
    for (const name of [...core, ...features]) expect(graph.has(`modules/${name}`)).toBe(true);
    expect(graph.has('db')).toBe(true);
  });

  it('has no cycle between modules', () => {
    const found = cycles(graph).map((ring) => ring.join(' -> '));
    expect(found, 'runtime import cycles between modules').toEqual([]);
  });

  it('keeps core modules from importing feature modules', () => {
    const wrong: string[] = [];
    for (const name of core) {
      for (const [to, why] of graph.get(`modules/${name}`) ?? []) {
        if (features.some((feature) => to === `modules/${feature}`)) {
          wrong.push(`modules/${name} -> ${to} (${why.join('; ')})`);
        }
      }
    }
    expect(wrong, 'core modules importing feature modules').toEqual([]);
  });

  it('keeps db from importing anything above it', () => {
    const wrong = [...(graph.get('db') ?? [])].map(
      ([to, why]) => `db -> ${to} (${why.join('; ')})`,
    );
    expect(wrong, 'db importing the rest of the server').toEqual([]);
  });
});
