import { execSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { COMPRESSIBLE, writeCompressedCopies } from './scripts/precompress.ts';

function buildVersion(): string {
  let commit = 'local';
  try {
    commit = execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    // Not a git checkout (e.g. an unpacked release): the timestamp alone identifies the build.
  }
  return `${commit}-${Date.now()}`;
}

const APP_VERSION = buildVersion();

/** SPEC §4 "Version check": the deployed version file the running app compares itself with. */
function versionFile(): Plugin {
  return {
    name: 'life-concierge-version-file',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ version: APP_VERSION }) });
    },
  };
}

/**
 * Issue 10: every text file of the build also as .br and .gz (scripts/precompress.ts), compressed once here so that
 * the server sends them as they are, never compressing on each request.
 */
function precompressedCopies(): Plugin {
  let outDir = 'dist';
  return {
    name: 'life-concierge-precompressed-copies',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true, withFileTypes: true })).filter(
        (entry) => entry.isFile() && !entry.parentPath.includes('.vite') && COMPRESSIBLE.test(entry.name),
      );
      await Promise.all(files.map((entry) => writeCompressedCopies(join(entry.parentPath, entry.name))));
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  // The SSR build (src/prerender.tsx, for scripts/prerender.ts) is a build-time tool: no files of the app's own.
  plugins: isSsrBuild ? [react()] : [react(), versionFile(), precompressedCopies()],
  publicDir: isSsrBuild ? false : 'public',
  define: { __APP_VERSION__: JSON.stringify(APP_VERSION) },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Which chunks and styles each page needs, and (in the SSR build) which module each lazily loaded chunk holds: the
    // prerendered pages link what they need (scripts/prerender.ts).
    manifest: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // DESIGN §9 weight budget. Left alone, Rolldown splits what every page loads at start into several shared
        // chunks, and each file is compressed on its own: one chunk for the entry's static imports is ~4 KB lighter
        // gzipped. TextInput and its react-aria dependencies (five small chunks otherwise) always load together.
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'] },
            { name: 'TextInput', test: /[\\/]src[\\/]widgets[\\/]TextInput\.tsx$/ },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
}));
