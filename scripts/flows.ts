/**
 * `npm run flows` (node scripts/flows.ts [--dir <machines dir>] [--samples <dir>] [--out <dir>] [machine file names...]):
 * for QA, prints each statechart of src/machines/*.machine.ts with its states, transitions (source -event-> target)
 * and the shortest path of events to every reachable state, and writes the same as JSON to flows/<name>.json.
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
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type AnyEventObject, type AnyStateMachine, type AnyStateNode, type StateValue, initialTransition, transition } from 'xstate';
import { getShortestPaths, getStateNodes } from 'xstate/graph';

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
}

const ROOT = '(machine)';
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

function statePath(node: AnyStateNode): string {
  return node.path.length > 0 ? node.path.join('.') : ROOT;
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
        source: statePath(node),
        event: definition.eventType || '(always)',
        target: definition.target?.length ? definition.target.map(statePath).join(' + ') : '(stays)',
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
    states: nodes.filter((node) => node !== machine.root).map(statePath),
    transitions: describeTransitions(machine),
    invokes: nodes.flatMap((node) =>
      node.invoke.map((definition) => ({
        state: statePath(node),
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
  return lines.join('\n');
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

function parseArguments(argv: string[]) {
  const options = { dir: 'src/machines', samples: 'tests/machines/flowSamples', out: 'flows', only: [] as string[] };
  const folderOptions = { '--dir': 'dir', '--samples': 'samples', '--out': 'out' } as const;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    if (argument in folderOptions) {
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
  mkdirSync(options.out, { recursive: true });
  for (const flows of run.described) {
    console.log(`${formatFlows(flows)}\n`);
    writeFileSync(join(options.out, outputName(flows, run)), `${JSON.stringify(flows, null, 2)}\n`);
  }
  for (const { file, reason } of run.failures) console.error(`${file}: not described (${reason})`);
  console.log(`${run.described.length} machine(s) described in ${options.out}/, ${run.failures.length} file(s) skipped.`);
  if (run.described.length === 0) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
