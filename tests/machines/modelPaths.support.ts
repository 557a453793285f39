/**
 * Shared pieces of the model-based tests of the flows (tests/machines/*.model.test.tsx): path generation, path runner,
 * coverage check, the calls the actors wait on and the actors the views create.
 *
 * The machines invoke promise actors. For path generation those are replaced by the `xstate.done.actor.<id>` /
 * `xstate.error.actor.<id>` events their completion produces; when a path runs against the real view, the same
 * event settles the call the view's actor is waiting on (see PendingCalls).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import {
  type ActorLogic,
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type EventObject,
  type InputFrom,
  type InspectionEvent,
  createActor,
  fromPromise,
} from 'xstate';
import { TestModel, getStateNodes } from 'xstate/graph';
import { FLOWS_COVERAGE_DIR, type MachineCoverage, type WalkedTransition, stateNodeName } from './flowCoverage.ts';

/** The typed snapshot of a machine (SnapshotFrom does not resolve for a generic machine type). */
type Snap<M extends AnyStateMachine> = ReturnType<M['transition']>;

interface Call {
  input: unknown;
  resolve(output: unknown): void;
  reject(error: unknown): void;
}

/** The calls the actors under test are waiting on, by invoke id; each is settled by the path being run. */
export class PendingCalls {
  private readonly calls = new Map<string, Call>();

  /** Promise logic that waits until the test settles it, registered under its invoke id; provide it for each actor. */
  logic<TOutput, TInput = unknown>() {
    return fromPromise<TOutput, TInput>(({ input, self }) => this.start<TOutput>(self.id, input));
  }

  /** Starts a call under the given id (for calls faked at the network level rather than provided as actors). */
  start<T>(id: string, input?: unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => this.calls.set(id, { input, resolve: resolve as (output: unknown) => void, reject }));
  }

  inputOf(id: string): unknown {
    return this.pending(id).input;
  }

  clear() {
    this.calls.clear();
  }

  /** Resolves or rejects the call an `xstate.done.actor.<id>` / `xstate.error.actor.<id>` event stands for. */
  async settle(event: ModelEvent) {
    const [, kind, , id] = /^xstate\.(done|error)\.(actor)\.(.+)$/.exec(event.type) ?? [];
    if (!kind || !id) throw new Error(`${event.type} does not settle a call`);
    // A call faked at the network level is pending once its request has reached the fake server.
    const call = await waitFor(() => this.pending(id));
    this.calls.delete(id);
    await act(async () => {
      if (kind === 'done') call.resolve(event.output);
      else call.reject(event.error);
    });
  }

  private pending(id: string): Call {
    const call = this.calls.get(id);
    if (!call) throw new Error(`No call '${id}' is pending`);
    return call;
  }
}

/**
 * The actors the views start in the app's system, seen through its one `inspect` option (startTestApp in
 * appSystem.support.tsx), so a test can compare the view's actor with the model.
 */
export class InspectedActors {
  private readonly actors: AnyActorRef[] = [];

  readonly inspect = (event: InspectionEvent) => {
    if (event.type === '@xstate.actor') this.actors.push(event.actorRef as AnyActorRef);
  };

  /** The snapshot of the latest actor created from `machine` (or the first one, for a screen that was left since). */
  snapshotOf<M extends AnyStateMachine>(machine: M, which: 'latest' | 'first' = 'latest'): Snap<M> {
    const ofMachine = (candidate: AnyActorRef) => (candidate as AnyActorRef & { logic: unknown }).logic === machine;
    const actor = which === 'latest' ? this.actors.findLast(ofMachine) : this.actors.find(ofMachine);
    if (!actor) throw new Error(`No actor of ${machine.id} was created`);
    return actor.getSnapshot() as Snap<M>;
  }

  /** Whether an actor of `machine` was created (since the last clear). */
  has(machine: AnyStateMachine): boolean {
    return this.actors.some((candidate) => (candidate as AnyActorRef & { logic: unknown }).logic === machine);
  }

  /** Forgets the actors of earlier tests, for files that look up the first actor of a machine. */
  clear(): void {
    this.actors.length = 0;
  }
}

export const inspectedActors = new InspectedActors();

/** One registry per test file: the fake network (network.support.ts) and provided actors reach the same calls. */
export const pendingCalls = new PendingCalls();

/** An event of the model, with whatever it carries. */
export interface ModelEvent extends EventObject {
  [key: string]: unknown;
}

/** A named event of the model; the name tells paths apart (e.g. two sign-in answers) and titles the tests. */
export interface LabelledEvent {
  label: string;
  event: ModelEvent;
}

export function doneEvent(id: string, output: unknown, label: string): LabelledEvent {
  return { label, event: { type: `xstate.done.actor.${id}`, output } };
}

export function errorEvent(id: string, error: unknown, label: string): LabelledEvent {
  return { label, event: { type: `xstate.error.actor.${id}`, error } };
}

/**
 * The test model of a machine. Each state is keyed by its value, its context and the event that led to it, so the
 * shortest paths reach every state through every transition that enters it (self-transitions included). `offer`
 * narrows the events a state is offered beyond what the machine accepts there (and keeps the model finite). `walks`
 * names further paths, as the labels of their events: a shortest path reaches each state by one route, and where a
 * second route matters to what follows (a poll during a call, where news during it is walked), a walk takes it.
 */
export function flowModel<M extends AnyStateMachine>(
  machine: M,
  options: {
    events: readonly LabelledEvent[];
    input?: InputFrom<M>;
    offer?: (snapshot: Snap<M>, event: LabelledEvent) => boolean;
    walks?: readonly (readonly string[])[];
  },
) {
  const { events, input, offer = () => true, walks = [] } = options;
  const labels = new Map<EventObject, string>(events.map(({ event, label }) => [event, label]));
  const labelOf = (event: EventObject | undefined) => (event ? (labels.get(event) ?? event.type) : 'start');
  const invoked = new Set(allStateNodes(machine).flatMap((node) => node.invoke.map(({ id }) => id)));
  const traversal = {
    input,
    serializeEvent: (event: EventObject) => labelOf(event),
    // The state before is part of the key: a path then reaches each state through every transition into it, from
    // each state that has one, so that the paths take every transition (the coverage guard checks it).
    serializeState: (snapshot: Snap<M>, event: EventObject | undefined, before: Snap<M> | undefined) =>
      `${JSON.stringify({ value: snapshot.value, context: plainContext(snapshot.context) })} via ${labelOf(event)} from ${JSON.stringify(before?.value ?? null)}`,
  };
  const model = new TestModel(machine as unknown as ActorLogic<Snap<M>, EventObject, InputFrom<M>>, {
    ...traversal,
    events: (snapshot) =>
      events.filter((candidate) => takes(snapshot, candidate.event, invoked) && offer(snapshot, candidate)).map(({ event }) => event),
    stateMatcher: (snapshot, key) => snapshot.matches(key),
  });
  const eventOf = (label: string) => {
    const labelled = events.find((candidate) => candidate.label === label);
    if (!labelled) throw new Error(`The model has no event '${label}'`);
    return labelled.event;
  };
  // From the machine's start with its input (the traversal's default start has none).
  const fromState = createActor(machine, { input }).getSnapshot();
  const walked = walks.flatMap((walk) => model.getPathsFromEvents(walk.map(eventOf), { ...traversal, fromState }));
  // The first step of every path is the machine's start (xstate.init). The title names the path's test, and is the
  // path's description too, so that `npm run flows -- --coverage` tells which test walks a transition.
  const describe = (path: (typeof walked)[number]) =>
    ['start', ...path.steps.slice(1).map((step) => labelOf(step.event))].join(' → ');
  for (const path of walked) {
    path.description = describe(path);
    // The traversal would step through an event the state does not take, as if nothing happened.
    path.steps.slice(1).forEach((step, index) => {
      if (!takes(path.steps[index]!.state, step.event, invoked)) {
        throw new Error(`Walk ${path.description}: '${labelOf(step.event)}' is not taken at step ${index + 1}`);
      }
    });
  }
  const shortest = model.getShortestPaths().filter((path) => {
    path.description = describe(path);
    // A shortest path that a walk goes on from is walked with it.
    return !walked.some((walk) => walk.description.startsWith(`${path.description} → `));
  });
  const paths = [...shortest, ...walked];
  return { paths, titled: paths.map((path) => ({ title: path.description, path })) };
}

/**
 * Whether the state takes the event. A transition that only swallows it (no target, no actions), such as the app's
 * for a screen's failed flow, counts although snapshot.can() refuses it; but not for the completion of an actor the
 * machine invokes itself and is not running (it cannot come then).
 */
function takes(snapshot: AnyMachineSnapshot, event: EventObject, invoked: ReadonlySet<string>): boolean {
  if (snapshot.can(event)) return true;
  const [, actor] = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(event.type) ?? [];
  if (actor !== undefined && invoked.has(actor) && !(actor in snapshot.children)) return false;
  return (snapshot.machine.getTransitionData(snapshot, event) ?? []).length > 0;
}

export type ModelPath<M extends AnyStateMachine> = ReturnType<typeof flowModel<M>>['paths'][number];
export type StateAssertions<M extends AnyStateMachine> = Record<string, (snapshot: Snap<M>) => void>;
export type EventExecutors<M extends AnyStateMachine> = Record<
  string,
  (step: { event: ModelEvent; state: Snap<M> }) => Promise<unknown> | void
>;

/** Executors that settle the pending call of every `xstate.done.actor.*` / `xstate.error.actor.*` of the machine. */
export function settlementExecutors<M extends AnyStateMachine>(machine: M, calls: PendingCalls): EventExecutors<M> {
  const settlements = machine.root.events.filter((type) => /^xstate\.(done|error)\.actor\./.test(type));
  return Object.fromEntries(settlements.map((type) => [type, ({ event }) => calls.settle(event)]));
}

/**
 * Context as plain data. An actor reference held in context (e.g. the session) is compared by presence only; one held
 * inside a value (a subscriber in a list, a spawned child in a record) by its id, which tells such actors apart.
 */
function plainContext(context: Record<string, unknown>): unknown {
  return Object.fromEntries(Object.entries(context).map(([key, value]) => [key, isActorRef(value) ? '[actor]' : plainValue(value)]));
}

function isActorRef(value: unknown): value is AnyActorRef {
  return value !== null && typeof value === 'object' && 'getSnapshot' in value;
}

function plainValue(value: unknown): unknown {
  if (isActorRef(value)) return `[actor ${value.id}]`;
  if (Array.isArray(value)) return value.map(plainValue);
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, plainValue(entry)]));
}

/**
 * Runs one generated path against the real view. After every step, the actor behind the view must be in exactly the
 * model's state (value and context) before the state's own assertions (what the user sees) run.
 */
export async function runPath<M extends AnyStateMachine>(
  path: ModelPath<M>,
  actorSnapshot: () => Snap<M>,
  states: StateAssertions<M>,
  events: EventExecutors<M>,
) {
  const inSync = (expected: Snap<M>) =>
    waitFor(() => {
      const actual = actorSnapshot();
      expect({ value: actual.value, context: plainContext(actual.context) }).toEqual({
        value: expected.value,
        context: plainContext(expected.context),
      });
    });
  const synced = Object.fromEntries(
    Object.entries(states).map(([key, assertion]) => [
      key,
      async (snapshot: Snap<M>) => {
        await inSync(snapshot);
        await waitFor(() => assertion(snapshot));
      },
    ]),
  );
  await path.test({ states: synced, events });
}

/** What the coverage guard reads of a path: the state and the event of each step. */
interface CoveredPath {
  readonly steps: readonly { readonly state: AnyMachineSnapshot; readonly event: EventObject }[];
  /** xstate's own title of the path (its test's name where the model names its tests after it). */
  readonly description?: string;
}

/**
 * The coverage guard: every state node of the machine has an assertion and is reached by some path; every event the
 * machine handles (each descriptor of its transitions, a wildcard such as 'xstate.error.actor.*' included) has an
 * executor and is exercised by some path, whose every step has an executor of its own; and every transition (a state
 * and an event it handles, as "state event") is taken by some path.
 */
export function expectFullCoverage(
  machine: AnyStateMachine,
  paths: readonly CoveredPath[],
  states: Record<string, unknown>,
  events: Record<string, unknown>,
) {
  const stateKeys = getStateNodes(machine.root).map((node) => node.path.join('.')).sort();
  expect(Object.keys(states).sort()).toEqual(stateKeys);
  const visited = paths.flatMap((path) => path.steps.map((step) => step.state));
  expect(stateKeys.filter((key) => !visited.some((snapshot) => snapshot.matches(key)))).toEqual([]);

  const defined = definedTransitions(machine);
  const descriptors = [...new Set(defined.map(({ event }) => event))].sort();
  expect([...new Set(Object.keys(events).map((type) => mostSpecific(descriptors, type)))].sort()).toEqual(descriptors);
  const exercised = new Set(paths.flatMap((path) => path.steps.map((step) => step.event.type)));
  exercised.delete('xstate.init');
  expect(descriptors.filter((descriptor) => ![...exercised].some((type) => matches(descriptor, type)))).toEqual([]);
  // A step whose event has no executor would pass silently (TestPath.test looks its type up and skips it).
  expect([...exercised].filter((type) => !(type in events))).toEqual([]);

  // A step holds the state its event led to: the event was handled in the state of the step before.
  const walkers = new Map<string, string[]>();
  for (const path of paths) {
    path.steps.slice(1).forEach((step, index) => {
      const key = handlerOf(machine, path.steps[index]!.state, step.event.type);
      walkers.set(key, [...(walkers.get(key) ?? []), titleOf(path)]);
    });
  }
  const transitions: WalkedTransition[] = defined.map(({ source, event }) => ({
    source,
    event,
    walkedBy: [...new Set(walkers.get(`${source} ${event}`))],
  }));
  const coverageDir = process.env[FLOWS_COVERAGE_DIR];
  if (coverageDir) recordCoverage(coverageDir, machine, transitions);
  expect(transitions.filter(({ walkedBy }) => walkedBy.length === 0).map(({ source, event }) => `${source} ${event}`)).toEqual([]);
}

function recordCoverage(dir: string, machine: AnyStateMachine, transitions: WalkedTransition[]): void {
  mkdirSync(dir, { recursive: true });
  const coverage: MachineCoverage = { machine: machine.id, transitions };
  writeFileSync(join(dir, `${machine.id}.json`), `${JSON.stringify(coverage, null, 2)}\n`);
}

function titleOf(path: CoveredPath): string {
  return path.description ?? path.steps.map((step) => step.event.type).join(' → ');
}

/** The machine's state nodes, its root included. */
function allStateNodes(machine: AnyStateMachine) {
  return getStateNodes(machine.root).concat(machine.root);
}

/** Every state × event pair the machine defines (its own `on`, `after`, and invoke completions). */
function definedTransitions(machine: AnyStateMachine): { source: string; event: string }[] {
  return allStateNodes(machine).flatMap((node) =>
    [...node.transitions.keys()].map((event) => ({ source: stateNodeName(node), event })),
  );
}

/** Whether an event type matches a transition's descriptor: itself, or a wildcard ('*', 'xstate.error.actor.*'). */
function matches(descriptor: string, type: string): boolean {
  return descriptor === type || descriptor === '*' || (descriptor.endsWith('.*') && type.startsWith(descriptor.slice(0, -1)));
}

/** The descriptor xstate prefers among those matching `type`: the exact one, else the longest wildcard. */
function mostSpecific(descriptors: Iterable<string>, type: string): string | undefined {
  const matching = [...descriptors].filter((descriptor) => matches(descriptor, type));
  return matching.includes(type) ? type : matching.sort((a, b) => b.length - a.length)[0];
}

/**
 * The transition that handles `type` in `snapshot`, as "state descriptor": the deepest active state node with a
 * descriptor matching it, and that descriptor.
 */
function handlerOf(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, type: string): string {
  const [handler] = allStateNodes(machine)
    .filter((node) => node.path.length === 0 || snapshot.matches(node.path.join('.')))
    .flatMap((node) => {
      const descriptor = mostSpecific(node.transitions.keys(), type);
      return descriptor ? [{ node, descriptor }] : [];
    })
    .sort((a, b) => b.node.path.length - a.node.path.length);
  return handler ? `${stateNodeName(handler.node)} ${handler.descriptor}` : `(unhandled) ${type}`;
}

/**
 * Fails unless some path title matches each scenario the rules call for, so a change of the machine or of the
 * model's events cannot quietly drop one. Scenarios are named (the failure says which) or given as bare patterns.
 */
export function expectScenariosWalked(titles: readonly string[], scenarios: Record<string, RegExp> | readonly RegExp[]): void {
  const named = Array.isArray(scenarios)
    ? scenarios.map((pattern): [string, RegExp] => [String(pattern), pattern])
    : Object.entries(scenarios);
  for (const [name, pattern] of named) {
    expect(titles.some((title) => pattern.test(title)), name).toBe(true);
  }
}
