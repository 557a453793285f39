/**
 * `npm run build`: the app (vite build), then its pages prerendered (issue 10): the SSR build of
 * src/prerender.tsx renders them with the same routes and components, and scripts/prerender.ts writes them into the
 * build. Options are passed to vite: `--mode <mode>`, `--outDir <dir>` (default dist).
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prerenderPages } from './prerender.ts';

const { values } = parseArgs({ options: { mode: { type: 'string', default: 'production' }, outDir: { type: 'string', default: 'dist' } } });
const vite = (...args: string[]) =>
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--mode', values.mode, '--logLevel', 'warn', ...args], { stdio: 'inherit' });

vite('--outDir', values.outDir, '--emptyOutDir');
// Inside the project, so that the rendering code finds its packages in node_modules; one folder per build.
const ssrDir = join('node_modules', '.cache', `lc-prerender-${process.pid}`);
try {
  vite('--ssr', 'src/prerender.tsx', '--outDir', ssrDir, '--emptyOutDir');
  await prerenderPages(values.outDir, ssrDir, join(ssrDir, 'prerender.js'));
} finally {
  rmSync(ssrDir, { recursive: true, force: true });
}
// The app's modules, loaded to render, leave timers and actors running; the pages are written.
process.exit(0);
