/**
 * What the model tests walk of each machine, as the coverage guard (modelPaths.support.ts) records it when
 * `npm run flows -- --coverage` asks (scripts/flows.ts). Plain data, so that the script can read it without loading
 * the test libraries.
 */

/** A state node as QA reads it: its path ("loaded.composer.writing"), or "(machine)" for the root. */
export function stateNodeName(node: { path: readonly string[] }): string {
  return node.path.length > 0 ? node.path.join('.') : '(machine)';
}

/** The environment variable naming the folder the coverage guard writes into. */
export const FLOWS_COVERAGE_DIR = 'FLOWS_COVERAGE_DIR';

export interface WalkedTransition {
  /** The state that defines the transition, as scripts/flows.ts names it ("(machine)" for the root). */
  source: string;
  event: string;
  /** The titles of the paths (the model's tests) that take it. */
  walkedBy: string[];
}

export interface MachineCoverage {
  machine: string;
  transitions: WalkedTransition[];
}
