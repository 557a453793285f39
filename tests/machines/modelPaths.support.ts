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
 * narrows the events a state is offered beyond what the machine accepts there (and keeps the model finite).
 */
export function flowModel<M extends AnyStateMachine>(
  machine: M,
  options: {
    events: readonly LabelledEvent[];
    input?: InputFrom<M>;
    offer?: (snapshot: Snap<M>, event: LabelledEvent) => boolean;
  },
) {
  const { events, input, offer = () => true } = options;
  const labels = new Map<EventObject, string>(events.map(({ event, label }) => [event, label]));
  const labelOf = (event: EventObject | undefined) => (event ? (labels.get(event) ?? event.type) : 'start');
  const model = new TestModel(machine as unknown as ActorLogic<Snap<M>, EventObject, InputFrom<M>>, {
    input,
    events: (snapshot) =>
      events.filter((candidate) => snapshot.can(candidate.event) && offer(snapshot, candidate)).map(({ event }) => event),
    serializeEvent: (event) => labelOf(event),
    // The state before is part of the key: a path then reaches each state through every transition into it, from
    // each state that has one, so that the paths take every transition (the coverage guard checks it).
    serializeState: (snapshot, event, before) =>
      `${JSON.stringify({ value: snapshot.value, context: plainContext(snapshot.context) })} via ${labelOf(event)} from ${JSON.stringify(before?.value ?? null)}`,
    stateMatcher: (snapshot, key) => snapshot.matches(key),
  });
  const paths = model.getShortestPaths();
  // The first step of every path is the machine's start (xstate.init). The title names the path's test, and is the
  // path's description too, so that `npm run flows -- --coverage` tells which test walks a transition.
  for (const path of paths) path.description = ['start', ...path.steps.slice(1).map((step) => labelOf(step.event))].join(' → ');
  return { paths, titled: paths.map((path) => ({ title: path.description, path })) };
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
 * The coverage guard: every state node of the machine has an assertion and is reached by some path; every event
 * type the machine handles has an executor and is exercised by some path, which exercise no other event; and every
 * transition (a state and an event it handles, as "state event") is taken by some path. `notYetWalked` names the
 * transitions a model does not take yet: the list must be exact, so that it only ever shrinks.
 */
export function expectFullCoverage(
  machine: AnyStateMachine,
  paths: readonly CoveredPath[],
  states: Record<string, unknown>,
  events: Record<string, unknown>,
  { notYetWalked = [] }: { notYetWalked?: readonly string[] } = {},
) {
  const stateKeys = getStateNodes(machine.root).map((node) => node.path.join('.')).sort();
  expect(Object.keys(states).sort()).toEqual(stateKeys);
  const visited = paths.flatMap((path) => path.steps.map((step) => step.state));
  expect(stateKeys.filter((key) => !visited.some((snapshot) => snapshot.matches(key)))).toEqual([]);

  const eventTypes = [...machine.root.events].sort();
  expect(Object.keys(events).sort()).toEqual(eventTypes);
  const exercised = new Set(paths.flatMap((path) => path.steps.map((step) => step.event.type)));
  expect(eventTypes.filter((type) => !exercised.has(type))).toEqual([]);
  // A step whose event has no executor would pass silently (TestPath.test skips it).
  expect([...exercised].filter((type) => type !== 'xstate.init' && !eventTypes.includes(type))).toEqual([]);

  // A step holds the state its event led to: the event was handled in the state of the step before.
  const walkers = new Map<string, string[]>();
  for (const path of paths) {
    path.steps.slice(1).forEach((step, index) => {
      const key = `${handlerOf(machine, path.steps[index]!.state, step.event.type)} ${step.event.type}`;
      walkers.set(key, [...(walkers.get(key) ?? []), titleOf(path)]);
    });
  }
  const transitions: WalkedTransition[] = definedTransitions(machine).map(({ source, event }) => ({
    source,
    event,
    walkedBy: [...new Set(walkers.get(`${source} ${event}`))],
  }));
  const coverageDir = process.env[FLOWS_COVERAGE_DIR];
  if (coverageDir) recordCoverage(coverageDir, machine, transitions);
  const untaken = transitions.filter(({ walkedBy }) => walkedBy.length === 0);
  expect(untaken.map(({ source, event }) => `${source} ${event}`).sort()).toEqual([...notYetWalked].sort());
}

function recordCoverage(dir: string, machine: AnyStateMachine, transitions: WalkedTransition[]): void {
  mkdirSync(dir, { recursive: true });
  const coverage: MachineCoverage = { machine: machine.id, transitions };
  writeFileSync(join(dir, `${machine.id}.json`), `${JSON.stringify(coverage, null, 2)}\n`);
}

function titleOf(path: CoveredPath): string {
  return path.description ?? path.steps.map((step) => step.event.type).join(' → ');
}

/** Every state × event pair the machine defines (its own `on`, `after`, and invoke completions). */
function definedTransitions(machine: AnyStateMachine): { source: string; event: string }[] {
  return getStateNodes(machine.root).concat(machine.root).flatMap((node) =>
    [...node.transitions.keys()].map((event) => ({ source: stateNodeName(node), event })),
  );
}


/** The state node whose transitions handle `event` in `snapshot`: the deepest active one that defines it. */
function handlerOf(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: string): string | undefined {
  const active = getStateNodes(machine.root)
    .concat(machine.root)
    .filter((node) => node.path.length === 0 || snapshot.matches(node.path.join('.')))
    .filter((node) => node.transitions.has(event))
    .sort((a, b) => b.path.length - a.path.length);
  return active[0] && stateNodeName(active[0]);
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
