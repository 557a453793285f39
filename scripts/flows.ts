/**
 * `npm run flows` (node scripts/flows.ts [--coverage] [--dir <machines dir>] [--samples <dir>] [--out <dir>] [machine
 * file names...]): for QA, prints each statechart of src/machines/*.machine.ts with its states, transitions
 * (source -event-> target) and the shortest path of events to every reachable state, and writes the same as JSON to
 * flows/<name>.json and as one page, flows/index.html (each machine's diagram, transitions and paths).
 *
 * With --coverage, the model tests (tests/machines) run first, their coverage guard recording which of their paths
 * take each transition: the output then tells, per machine, the transitions the tests walk and which test walks each.
 *
 * How the paths are generated (xstate/graph getShortestPaths):
 * - every event a state listens to is tried, including `xstate.after.*` (delays) and the `xstate.done.actor.*` /
 *   `xstate.error.actor.*` events of invoked actors. Those are simulated WITHOUT output or error data, so the path
 *   follows whichever guarded branch accepts an empty result. A transition that cannot run without the data (its
 *   guard or action throws) is skipped and listed under "not simulated": paths stop at that invoke boundary. The
 *   model-based tests (tests/machines) feed real outputs instead;
 * - states are told apart by their state value only (context is ignored), so each state gets one shortest path;
 * - machines are started with an empty input object; one whose initial state still fails is listed with its
 *   states and transitions, without paths;
 * - a machine may have samples: `<name>.samples.ts` in the samples folder (tests/machines/flowSamples), exporting
 *   `flowSamples` ({ input?, events? }, see FlowSamples), give the traversal a real input and event payloads (e.g. a
 *   done event with an output): then paths go past those invoke boundaries. The model-based tests can use the same
 *   samples; the app's machine files carry none.
 *
 * Machine files are imported as they are: they must be pure modules that plain `node` can load (no .tsx, .css or
 * import.meta.env at the top level). A file that fails to load is reported with the reason and skipped; the run
 * fails only when no machine at all could be described.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type AnyEventObject, type AnyStateMachine, type AnyStateNode, type StateValue, initialTransition, transition } from 'xstate';
import { getShortestPaths, getStateNodes } from 'xstate/graph';
import { FLOWS_COVERAGE_DIR, type MachineCoverage, type WalkedTransition, stateNodeName } from '../tests/machines/flowCoverage.ts';

const MACHINE_SUFFIX = '.machine.ts';
const SAMPLES_SUFFIX = '.samples.ts';
/** Traversal steps per machine before giving up on paths: far more than any statechart of this app needs. */
const TRAVERSAL_LIMIT = 20_000;

export interface FlowTransition {
  source: string;
  event: string;
  target: string;
  guard?: string;
}

export interface FlowPath {
  /** The state reached, e.g. "updateNeeded.reloading". */
  target: string;
  /** The events that lead there from the initial state, in order, each with its payload if it has one. */
  events: string[];
}

export interface MachineFlows {
  machine: string;
  file: string;
  exportName: string;
  initial: string;
  states: string[];
  transitions: FlowTransition[];
  invokes: Array<{ state: string; id: string; src: string }>;
  paths: FlowPath[];
  /** Events the traversal could not simulate, and why; or why there are no paths at all. */
  notSimulated: string[];
  /** With --coverage: each transition (state and event) and the model tests that take it. */
  coverage?: WalkedTransition[];
}

/** Machines that need input get an empty object: context built from it holds undefined values, not a crash. */
const EMPTY_INPUT = {};

/** What a machine module may export as `flowSamples` for the traversal. */
export interface FlowSamples {
  input?: unknown;
  /** Payloads for event types; every other event a state listens to is tried as `{ type }`. */
  events?: AnyEventObject[];
}

function isFlowSamples(value: unknown): value is FlowSamples {
  return typeof value === 'object' && value !== null && (!('events' in value) || Array.isArray(value.events));
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}


/** {updateNeeded: 'reloading'} -> "updateNeeded.reloading"; parallel regions are joined with " + ". */
export function formatStateValue(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .map(([key, child]) => {
      if (child === undefined) return key;
      const nested = formatStateValue(child);
      return nested ? `${key}.${nested}` : key;
    })
    .join(' + ');
}

function isStateMachine(value: unknown): value is AnyStateMachine {
  return (
    typeof value === 'object' &&
    value !== null &&
    'getStateNodeById' in value &&
    'root' in value &&
    typeof (value as { transition?: unknown }).transition === 'function'
  );
}

function describeGuard(guard: unknown): string | undefined {
  if (!guard) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string') return guard.type;
  return typeof guard === 'function' ? guard.name || 'inline guard' : undefined;
}

function allNodes(machine: AnyStateMachine): AnyStateNode[] {
  return [machine.root, ...getStateNodes(machine.root)];
}

function describeTransitions(machine: AnyStateMachine): FlowTransition[] {
  return allNodes(machine).flatMap((node) => {
    const definitions = [...node.transitions.values()].flat().concat(node.always ?? []);
    return definitions.map((definition) => {
      const guard = describeGuard(definition.guard);
      return {
        source: stateNodeName(node),
        event: definition.eventType || '(always)',
        target: definition.target?.length ? definition.target.map(stateNodeName).join(' + ') : '(stays)',
        ...(guard ? { guard } : {}),
      };
    });
  });
}

/**
 * Every event type the machine handles anywhere, each as its sample payloads or as `{ type }`; each state is then
 * offered only those it acts on (see filterEvents). Wildcard descriptors ('*', 'a.*') are not events.
 */
function traversalEvents(machine: AnyStateMachine, samples: FlowSamples): AnyEventObject[] {
  const types = new Set(
    allNodes(machine).flatMap((node) => [...node.transitions.keys()]).filter((type) => !type.includes('*')),
  );
  return [...types].flatMap((type) => {
    const sampled = (samples.events ?? []).filter((event) => event.type === type);
    return sampled.length > 0 ? sampled : [{ type }];
  });
}

/** "RELOAD {\"href\":\"/dashboard\"}": the type, then the payload when there is one. */
function formatEvent({ type, ...payload }: AnyEventObject): string {
  return Object.keys(payload).length > 0 ? `${type} ${JSON.stringify(payload)}` : type;
}

function describePaths(machine: AnyStateMachine, samples: FlowSamples): { paths: FlowPath[]; notSimulated: string[] } {
  const notSimulated = new Set<string>();
  const input = samples.input ?? EMPTY_INPUT;
  const initial = initialTransition(machine, input)[0];
  if (initial.status === 'error') {
    return { paths: [], notSimulated: [`no paths: the initial state failed (${errorMessage(initial.error)})`] };
  }
  let statePaths;
  try {
    statePaths = getShortestPaths(machine, {
      input,
      events: traversalEvents(machine, samples),
      serializeState: (snapshot) => `${snapshot.status}:${JSON.stringify(snapshot.value)}`,
      limit: TRAVERSAL_LIMIT,
      filterEvents: (snapshot, event: AnyEventObject) => {
        try {
          // Only events the current state acts on; an unhandled actor error would otherwise fail the machine.
          if (!snapshot.can(event)) return false;
          transition(machine, snapshot, event);
          return true;
        } catch (error) {
          notSimulated.add(`${event.type} in ${formatStateValue(snapshot.value)}: ${errorMessage(error)}`);
          return false;
        }
      },
    });
  } catch (error) {
    return { paths: [], notSimulated: [`no paths: ${errorMessage(error)}`] };
  }
  const paths = statePaths.map((path) => ({
    target: formatStateValue(path.state.value),
    events: path.steps.map((step) => formatEvent(step.event)).filter((event) => event !== 'xstate.init'),
  }));
  paths.sort((a, b) => a.events.length - b.events.length || a.target.localeCompare(b.target));
  return { paths, notSimulated: [...notSimulated] };
}

function describeInitialState(machine: AnyStateMachine, input: unknown): string {
  try {
    return formatStateValue(initialTransition(machine, input)[0].value);
  } catch (error) {
    return `unknown (${errorMessage(error)})`;
  }
}

export function describeMachine(
  machine: AnyStateMachine,
  file: string,
  exportName: string,
  samples: FlowSamples = {},
): MachineFlows {
  const nodes = allNodes(machine);
  const { paths, notSimulated } = describePaths(machine, samples);
  return {
    machine: machine.id,
    file,
    exportName,
    initial: describeInitialState(machine, samples.input ?? EMPTY_INPUT),
    states: nodes.filter((node) => node !== machine.root).map(stateNodeName),
    transitions: describeTransitions(machine),
    invokes: nodes.flatMap((node) =>
      node.invoke.map((definition) => ({
        state: stateNodeName(node),
        id: definition.id,
        src: typeof definition.src === 'string' ? definition.src : 'inline actor',
      })),
    ),
    paths,
    notSimulated,
  };
}

export function formatFlows(flows: MachineFlows): string {
  const lines = [`${flows.machine} (${flows.file}, export ${flows.exportName})`, `  initial: ${flows.initial}`, '  states:'];
  for (const state of flows.states) lines.push(`    ${state}`);
  lines.push('  transitions:');
  for (const { source, event, target, guard } of flows.transitions) {
    lines.push(`    ${source} -${event}${guard ? ` [${guard}]` : ''}-> ${target}`);
  }
  if (flows.invokes.length > 0) {
    lines.push('  invoked actors:');
    for (const { state, id, src } of flows.invokes) lines.push(`    ${state}: ${id} (${src})`);
  }
  lines.push('  shortest paths:');
  for (const { target, events } of flows.paths) {
    lines.push(`    ${target} <= ${events.length > 0 ? events.join(', ') : '(initial)'}`);
  }
  if (flows.notSimulated.length > 0) {
    lines.push('  not simulated:');
    for (const note of flows.notSimulated) lines.push(`    ${note}`);
  }
  if (flows.coverage) {
    const unwalked = flows.coverage.filter(({ walkedBy }) => walkedBy.length === 0);
    lines.push(`  transitions the model tests take: ${flows.coverage.length - unwalked.length}/${flows.coverage.length}`);
    for (const { source, event } of unwalked) lines.push(`    not taken: ${source} ${event}`);
  }
  return lines.join('\n');
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The statechart as a picture: its states in columns by their distance (in transitions) from the initial state,
 * arrows labelled with their events. Nested states are drawn as states of their own, named by their path.
 */
export function flowDiagram(flows: MachineFlows): string {
  const distance = new Map<string, number>([[flows.initial.split(' + ')[0] ?? flows.initial, 0]]);
  const edges = flows.transitions.filter(({ target }) => target !== '(stays)');
  for (let changed = true; changed; ) {
    changed = false;
    for (const { source, target } of edges) {
      const from = [...distance].find(([state]) => state === source || state.startsWith(`${source}.`) || source.startsWith(`${state}.`));
      for (const to of target.split(' + ')) {
        if (from && !distance.has(to)) {
          distance.set(to, from[1] + 1);
          changed = true;
        }
      }
    }
  }
  // States no transition leads to (e.g. those entered only through a parent) share the last column.
  const lastColumn = Math.max(0, ...distance.values()) + 1;
  const columns: string[][] = [];
  for (const state of flows.states) (columns[distance.get(state) ?? lastColumn] ??= []).push(state);
  const [boxWidth, boxHeight, columnGap, rowGap] = [190, 28, 70, 18];
  const position = new Map<string, { x: number; y: number }>();
  columns.forEach((states, column) =>
    (states ?? []).forEach((state, row) =>
      position.set(state, { x: 10 + column * (boxWidth + columnGap), y: 10 + row * (boxHeight + rowGap) }),
    ),
  );
  const width = 20 + columns.length * (boxWidth + columnGap);
  const height = 20 + Math.max(1, ...columns.map((states) => states?.length ?? 0)) * (boxHeight + rowGap);
  const arrows = edges.flatMap(({ source, event, target }) =>
    target.split(' + ').flatMap((to) => {
      const [from, end] = [position.get(source), position.get(to)];
      if (!from || !end || source === to) return [];
      const [x1, y1, x2, y2] = [from.x + boxWidth, from.y + boxHeight / 2, end.x, end.y + boxHeight / 2];
      return [
        `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" marker-end="url(#arrow)"><title>${escapeHtml(`${source} -${event}-> ${to}`)}</title></line>`,
      ];
    }),
  );
  const boxes = [...position].map(
    ([state, { x, y }]) =>
      `<g><rect x="${x}" y="${y}" width="${boxWidth}" height="${boxHeight}" rx="6"${state === flows.initial ? ' class="initial"' : ''}/>` +
      `<text x="${x + 8}" y="${y + 18}">${escapeHtml(state.length > 28 ? `…${state.slice(-27)}` : state)}</text><title>${escapeHtml(state)}</title></g>`,
  );
  return `<svg role="img" aria-label="${escapeHtml(`Diagram of ${flows.machine}`)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z"/></marker></defs>
${arrows.join('\n')}
${boxes.join('\n')}
</svg>`;
}

/** The page QA opens: per machine, its diagram, its transitions (with the tests that take each) and its paths. */
export function flowsPage(described: MachineFlows[]): string {
  const sections = described.map((flows) => {
    const walked = flows.coverage?.filter(({ walkedBy }) => walkedBy.length > 0).length;
    const walkersOf = (source: string, event: string) =>
      flows.coverage?.find((transition) => transition.source === source && transition.event === event)?.walkedBy;
    const rows = flows.transitions.map(({ source, event, target, guard }) => {
      const walkers = walkersOf(source, event);
      const cell =
        walkers === undefined
          ? ''
          : walkers.length === 0
            ? '<td class="unwalked">not taken</td>'
            : `<td><details><summary>${walkers.length} test${walkers.length === 1 ? '' : 's'}</summary><ul>${walkers
                .map((title) => `<li>${escapeHtml(title)}</li>`)
                .join('')}</ul></details></td>`;
      return `<tr><td>${escapeHtml(source)}</td><td>${escapeHtml(event)}</td><td>${escapeHtml(guard ?? '')}</td><td>${escapeHtml(target)}</td>${cell}</tr>`;
    });
    return `<section id="${escapeHtml(flows.machine)}">
<h2>${escapeHtml(flows.machine)}</h2>
<p>${escapeHtml(flows.file)}, export ${escapeHtml(flows.exportName)}; initial state ${escapeHtml(flows.initial)}; ${flows.states.length} states, ${flows.transitions.length} transitions${
      flows.coverage ? `; the model tests take ${walked}/${flows.coverage.length} state × event pairs` : ''
    }.</p>
<div class="diagram">${flowDiagram(flows)}</div>
<h3>Transitions</h3>
<table><thead><tr><th>from</th><th>event</th><th>guard</th><th>to</th>${flows.coverage ? '<th>taken by</th>' : ''}</tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<h3>Shortest paths</h3>
<ol>${flows.paths.map(({ target, events }) => `<li><b>${escapeHtml(target)}</b> ⇐ ${escapeHtml(events.join(', ') || '(initial)')}</li>`).join('')}</ol>
</section>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Life Concierge statecharts</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#1a1a1a}nav a{margin-right:.75rem}
.diagram{overflow:auto;border:1px solid #ddd;padding:.5rem}svg rect{fill:#eef3fb;stroke:#1f4b99}svg rect.initial{fill:#d6f5dd}
svg text{font:12px system-ui,sans-serif}svg line{stroke:#8795a1}svg marker path{fill:#8795a1}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
.unwalked{color:#a40000;font-weight:600}
</style></head><body>
<h1>Life Concierge statecharts</h1>
<nav>${described.map((flows) => `<a href="#${escapeHtml(flows.machine)}">${escapeHtml(flows.machine)}</a>`).join('')}</nav>
${sections.join('\n')}
</body></html>
`;
}

export interface FlowsRun {
  described: MachineFlows[];
  failures: Array<{ file: string; reason: string }>;
}

type ModuleLoader = (file: string) => Promise<Record<string, unknown>>;

const nativeImport: ModuleLoader = (file) => import(pathToFileURL(file).href);

/**
 * Imports each machine file of `machinesDir` (only the `only` ones, when given), and its samples from `samplesDir`
 * when it has any, and describes its machines.
 */
export async function collectFlows(
  machinesDir: string,
  { only = [], samplesDir, load = nativeImport }: { only?: string[]; samplesDir?: string; load?: ModuleLoader } = {},
): Promise<FlowsRun> {
  const files = readdirSync(machinesDir)
    .filter((name) => name.endsWith(MACHINE_SUFFIX))
    .filter((name) => only.length === 0 || only.includes(basename(name, MACHINE_SUFFIX)))
    .sort();
  const run: FlowsRun = { described: [], failures: [] };
  for (const file of files) {
    try {
      const module = await load(join(machinesDir, file));
      const machines = Object.entries(module).filter((entry): entry is [string, AnyStateMachine] =>
        isStateMachine(entry[1]),
      );
      if (machines.length === 0) throw new Error('exports no state machine');
      const samplesFile = samplesDir && join(samplesDir, `${basename(file, MACHINE_SUFFIX)}${SAMPLES_SUFFIX}`);
      const samplesModule = samplesFile && existsSync(samplesFile) ? await load(samplesFile) : {};
      const samples = isFlowSamples(samplesModule.flowSamples) ? samplesModule.flowSamples : {};
      for (const [exportName, machine] of machines) {
        run.described.push(describeMachine(machine, file, exportName, samples));
      }
    } catch (error) {
      run.failures.push({ file, reason: errorMessage(error) });
    }
  }
  return run;
}

function outputName(flows: MachineFlows, run: FlowsRun): string {
  const stem = basename(flows.file, MACHINE_SUFFIX);
  const sameFile = run.described.filter((other) => other.file === flows.file);
  return sameFile.length > 1 ? `${stem}.${flows.exportName}.json` : `${stem}.json`;
}

/**
 * Runs the model tests with their coverage guard recording what each walks, and reads the records by machine id.
 * A failing test does not stop the run: the records are what the other tests walked.
 */
function modelTestCoverage(): Map<string, WalkedTransition[]> {
  const dir = mkdtempSync(join(tmpdir(), 'lc-flows-coverage-'));
  try {
    try {
      execFileSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--project', 'unit', 'tests/machines'], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, [FLOWS_COVERAGE_DIR]: dir },
      });
    } catch {
      console.error('Some model tests failed: the coverage below is what the others walked.');
    }
    const records = readdirSync(dir).map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as MachineCoverage);
    return new Map(records.map(({ machine, transitions }) => [machine, transitions]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The machine's transitions (state × event) and the model tests that take each, as recorded; for a machine that no
 * model test walks, every one of them not taken.
 */
export function coverageOf(flows: MachineFlows, recorded: ReadonlyMap<string, WalkedTransition[]>): WalkedTransition[] {
  const walked = recorded.get(flows.machine);
  if (walked) return walked;
  const pairs = flows.transitions.filter(({ event }) => event !== '(always)');
  return [...new Map(pairs.map(({ source, event }) => [`${source} ${event}`, { source, event, walkedBy: [] }])).values()];
}

function parseArguments(argv: string[]) {
  const options = { dir: 'src/machines', samples: 'tests/machines/flowSamples', out: 'flows', only: [] as string[], coverage: false };
  const folderOptions = { '--dir': 'dir', '--samples': 'samples', '--out': 'out' } as const;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    if (argument === '--coverage') {
      options.coverage = true;
    } else if (argument in folderOptions) {
      const value = argv[(index += 1)];
      if (!value) throw new Error(`${argument} needs a directory`);
      options[folderOptions[argument as keyof typeof folderOptions]] = value;
    } else {
      options.only.push(basename(argument, MACHINE_SUFFIX));
    }
  }
  return options;
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  // Machines import app modules that rely on Vite (import.meta.env, CSS): load them through Vite's SSR loader.
  const { createServer } = await import('vite');
  const vite = await createServer({ appType: 'custom', logLevel: 'error', server: { middlewareMode: true, hmr: false } });
  const run = await collectFlows(resolve(options.dir), {
    only: options.only,
    samplesDir: resolve(options.samples),
    load: (file) => vite.ssrLoadModule(file),
  });
  await vite.close();
  if (options.coverage) {
    const coverage = modelTestCoverage();
    for (const flows of run.described) flows.coverage = coverageOf(flows, coverage);
  }
  mkdirSync(options.out, { recursive: true });
  for (const flows of run.described) {
    console.log(`${formatFlows(flows)}\n`);
    writeFileSync(join(options.out, outputName(flows, run)), `${JSON.stringify(flows, null, 2)}\n`);
  }
  writeFileSync(join(options.out, 'index.html'), flowsPage(run.described));
  for (const { file, reason } of run.failures) console.error(`${file}: not described (${reason})`);
  console.log(`${run.described.length} machine(s) described in ${options.out}/, ${run.failures.length} file(s) skipped.`);
  if (run.described.length === 0) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
