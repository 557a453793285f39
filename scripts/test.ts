// `npm test`: the whole suite, in two lanes that run side by side. The end-to-end suite mostly waits on a browser
// and its servers, the other parts mostly compute: together they finish in about the time of the longer lane
// rather than the sum of both. Each lane stops at its first failing part; the other lane still finishes, so one run
// shows every failure. Lines are prefixed with their lane; a summary of each part's time ends the run, followed by
// the last lines of each failed part (where its runner names what failed), so a log's tail alone says why.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const LANES: Record<string, string[]> = {
  checks: ['typecheck', 'lint', 'lint:openapi', 'test:unit', 'test:server'],
  e2e: ['test:e2e'],
};

const TAIL_LINES = 60;

interface Outcome {
  script: string;
  seconds: number;
  passed: boolean;
  tail: string[];
}

function run(lane: string, script: string): Promise<{ passed: boolean; tail: string[] }> {
  return new Promise((resolve) => {
    const tail: string[] = [];
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        console.log(`[${lane}] ${line}`);
        tail.push(line);
        if (tail.length > TAIL_LINES) tail.shift();
      });
    }
    child.on('close', (code) => resolve({ passed: code === 0, tail }));
  });
}

async function runLane(lane: string, scripts: string[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const script of scripts) {
    const started = Date.now();
    console.log(`[${lane}] ▶ npm run ${script}`);
    const { passed, tail } = await run(lane, script);
    outcomes.push({ script, seconds: Math.round((Date.now() - started) / 1000), passed, tail });
    if (!passed) break;
  }
  return outcomes;
}

const outcomes = (await Promise.all(Object.entries(LANES).map(([lane, scripts]) => runLane(lane, scripts)))).flat();
const planned = Object.values(LANES).flat();
console.log('\nTest summary:');
for (const script of planned) {
  const outcome = outcomes.find((done) => done.script === script);
  console.log(`  ${outcome ? (outcome.passed ? 'passed' : 'FAILED') : 'not run'}  ${script}${outcome ? ` (${outcome.seconds} s)` : ''}`);
}
for (const failed of outcomes.filter((outcome) => !outcome.passed)) {
  console.log(`\nLast lines of ${failed.script}:`);
  for (const line of failed.tail) console.log(`  ${line}`);
}
process.exit(outcomes.length === planned.length && outcomes.every((outcome) => outcome.passed) ? 0 : 1);
