import { execSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
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

/** Text files worth compressing; source maps are left as they are (only developers fetch them). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml)$/;

/**
 * Issue 10: every text file of the build also as .br (quality 11) and .gz (level 9), compressed once here so that the
 * server (@fastify/static's preCompressed) sends them as they are, never compressing on each request.
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
      const files = (await readdir(outDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name));
      await Promise.all(
        files.map(async (entry) => {
          const path = join(entry.parentPath, entry.name);
          const source = await readFile(path);
          const brotli = brotliCompressSync(source, {
            params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.length },
          });
          await Promise.all([writeFile(`${path}.br`, brotli), writeFile(`${path}.gz`, gzipSync(source, { level: 9 }))]);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), versionFile(), precompressedCopies()],
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
