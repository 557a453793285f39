import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { type MachineFlows, coverageOf, describeMachine, flowsPage, formatFlows } from '../../scripts/flows.ts';
import { versionCheckMachine } from '../../src/machines/versionCheck.machine.ts';
import { flowSamples } from '../machines/flowSamples/versionCheck.samples.ts';

const run = promisify(execFile);
const SCRIPT = resolve('scripts/flows.ts');
const VERSION_CHECK_FILE = pathToFileURL(resolve('src/machines/versionCheck.machine.ts')).href;

const temporaryDirs: string[] = [];
function temporaryDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lc-flows-'));
  temporaryDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temporaryDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs `node scripts/flows.ts` as `npm run flows` does, never failing the promise on a non-zero exit. */
async function flowsCli(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('describeMachine', () => {
  const flows = describeMachine(versionCheckMachine, 'versionCheck.machine.ts', 'versionCheckMachine', flowSamples);

  it('lists the states, transitions and invoked actors of the version check', () => {
    expect(flows.initial).toBe('upToDate');
    expect(flows.states).toEqual(['upToDate', 'checking', 'updateNeeded', 'updateNeeded.available', 'updateNeeded.reloading']);
    expect(flows.transitions).toEqual([
      { source: 'upToDate', event: 'TAB_VISIBLE', target: 'checking' },
      { source: 'checking', event: 'xstate.done.actor.fetchDeployedVersion', target: 'updateNeeded', guard: 'isOtherVersion' },
      { source: 'checking', event: 'xstate.done.actor.fetchDeployedVersion', target: 'upToDate' },
      { source: 'checking', event: 'xstate.error.actor.fetchDeployedVersion', target: 'upToDate' },
      { source: 'updateNeeded', event: 'RELOAD', target: 'updateNeeded.reloading' },
    ]);
    expect(flows.invokes).toEqual([
      { state: '(machine)', id: 'watchVisibility', src: 'watchVisibility' },
      { state: 'checking', id: 'fetchDeployedVersion', src: 'fetchDeployedVersion' },
    ]);
  });

  it('generates the shortest path to every state, past the invoke boundary thanks to the samples', () => {
    expect(flows.paths).toEqual([
      { target: 'upToDate', events: [] },
      { target: 'checking', events: ['TAB_VISIBLE'] },
      { target: 'updateNeeded.available', events: ['TAB_VISIBLE', 'xstate.done.actor.fetchDeployedVersion {"output":"v2"}'] },
      {
        target: 'updateNeeded.reloading',
        events: [
          'TAB_VISIBLE',
          'xstate.done.actor.fetchDeployedVersion {"output":"v2"}',
          'RELOAD {"href":"http://localhost:3000/dashboard"}',
        ],
      },
    ]);
    expect(flows.notSimulated).toEqual([]);
    expect(formatFlows(flows)).toContain('    upToDate -TAB_VISIBLE-> checking');
  });

  it('with the model tests\' coverage, tells the transitions they take and those they do not', () => {
    const walked = { ...flows, coverage: [
      { source: 'upToDate', event: 'TAB_VISIBLE', walkedBy: ['start → tab visible'] },
      { source: 'updateNeeded', event: 'RELOAD', walkedBy: [] },
    ] };
    expect(formatFlows(walked)).toContain('  transitions the model tests take: 1/2\n    not taken: updateNeeded RELOAD');
  });

  it('tells every transition of a machine that no model test walks as not taken', () => {
    const recorded = new Map([['versionCheck', [{ source: 'upToDate', event: 'TAB_VISIBLE', walkedBy: ['start → tab visible'] }]]]);
    expect(coverageOf(flows, recorded)).toEqual(recorded.get('versionCheck'));
    const untaken = coverageOf(flows, new Map());
    expect(untaken).toContainEqual({ source: 'upToDate', event: 'TAB_VISIBLE', walkedBy: [] });
    expect(untaken.every(({ walkedBy }) => walkedBy.length === 0)).toBe(true);
    expect(new Set(untaken.map(({ source, event }) => `${source} ${event}`)).size).toBe(untaken.length);
    expect(formatFlows({ ...flows, coverage: untaken })).toContain(`  transitions the model tests take: 0/${untaken.length}`);
  });

  it('draws the page QA opens: a diagram with a box per state, the transitions with the tests that take them', () => {
    const page = flowsPage([{ ...flows, coverage: [
      { source: 'upToDate', event: 'TAB_VISIBLE', walkedBy: ['start → tab <visible>'] },
      { source: 'checking', event: 'xstate.done.actor.fetchDeployedVersion', walkedBy: [] },
    ] }]);
    expect(page).toContain('<section id="versionCheck">');
    expect(page.match(/<rect /g)).toHaveLength(flows.states.length);
    expect(page.match(/<tr><td>/g)).toHaveLength(flows.transitions.length);
    expect(page).toContain('<li>start → tab &#60;visible&#62;</li>');
    expect(page).toContain('<td class="unwalked">not taken</td>');
    expect(page).toContain('the model tests take 1/2 state × event pairs');
  });

  it('without samples, stops where a transition needs data the traversal does not have', () => {
    const bare = describeMachine(versionCheckMachine, 'versionCheck.machine.ts', 'versionCheckMachine');
    expect(bare.paths.map((path) => path.target)).toEqual(['upToDate', 'checking']);
  });
});

describe('node scripts/flows.ts', () => {
  it('prints the version check and writes flows/versionCheck.json', async () => {
    const out = temporaryDir();
    const { code, stdout } = await flowsCli('--out', out, 'versionCheck');

    expect(code).toBe(0);
    expect(stdout).toContain('versionCheck (versionCheck.machine.ts, export versionCheckMachine)');
    expect(stdout).toContain('updateNeeded.reloading <= TAB_VISIBLE');
    const written = JSON.parse(readFileSync(join(out, 'versionCheck.json'), 'utf8')) as MachineFlows;
    expect(written.machine).toBe('versionCheck');
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('<h2>versionCheck</h2>');
    expect(written.paths.map((path) => path.target)).toContain('updateNeeded.reloading');
  });

  it('reports machine files it cannot load, and goes on with the others', async () => {
    const machines = temporaryDir();
    const out = temporaryDir();
    writeFileSync(join(machines, 'good.machine.ts'), `export { versionCheckMachine } from '${VERSION_CHECK_FILE}';\n`);
    writeFileSync(join(machines, 'styled.machine.ts'), "import './banner.css';\nexport const nothing = 1;\n");
    writeFileSync(join(machines, 'noMachine.machine.ts'), 'export const answer = 42;\n');

    const { code, stdout, stderr } = await flowsCli('--dir', machines, '--out', out);

    expect(code).toBe(0);
    expect(stdout).toContain('1 machine(s) described');
    expect(stderr).toContain('styled.machine.ts: not described');
    expect(stderr).toContain('noMachine.machine.ts: not described (exports no state machine)');
    expect(readdirSync(out).sort()).toEqual(['good.json', 'index.html']);
  });

  it('fails when no machine at all could be described', async () => {
    const machines = temporaryDir();
    writeFileSync(join(machines, 'broken.machine.ts'), "throw new Error('not a pure module');\n");

    const { code, stderr } = await flowsCli('--dir', machines, '--out', temporaryDir());

    expect(code).toBe(1);
    expect(stderr).toContain('broken.machine.ts: not described (not a pure module)');
  });
});
