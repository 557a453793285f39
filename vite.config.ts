import { execSync } from 'node:child_process';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

export default defineConfig({
  plugins: [react(), versionFile()],
  define: { __APP_VERSION__: JSON.stringify(APP_VERSION) },
  build: {
    outDir: 'dist',
    sourcemap: true,
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
});
