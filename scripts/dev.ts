// `npm run dev`: the API server in watch mode on :3000 and Vite with hot reload on :5173 (proxying /api).
import { type ChildProcess, spawn } from 'node:child_process';

const children: ChildProcess[] = [
  spawn(process.execPath, ['--watch-path=server', '--watch-path=src/contract', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, STATIC_DIR: './no-static-in-dev' },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { stdio: 'inherit' }),
];

const stopAll = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.once('SIGINT', stopAll);
process.once('SIGTERM', stopAll);
for (const child of children) child.on('exit', (code) => {
  stopAll();
  process.exitCode = code ?? 0;
});
