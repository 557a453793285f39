import { execSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { earlyCallSetup, pageHeadScript } from './src/services/earlyCalls.ts';
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

/**
 * Issue 10: the session check's call made from the top of every page as it arrives, when the API is on the page's
 * origin, and the browser's internationalisation data loaded while the app's code downloads (src/services/earlyCalls.ts).
 * The server allows this one inline script by its hash (securityHeaders.ts).
 */
function pageHead(apiBaseSetting: string): Plugin {
  const script = pageHeadScript(earlyCallSetup(apiBaseSetting));
  return {
    name: 'life-concierge-page-head',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: () => [{ tag: 'script', children: script, injectTo: 'head-prepend' }],
    },
  };
}

const SOURCE_FOLDER = join(import.meta.dirname, 'src');
/** The frame every signed-in page stands in (SPEC §2). */
const FRAME = ['app/AppLayout.tsx'];
/**
 * What restoring a session loads lazily (the current user's schema, and the HTTP client, ky, which loads with the first
 * call: src/services/http.ts): needed before any signed-in page shows.
 */
const SESSION_CHECK = ['contract/account.ts'].map((module) => join(SOURCE_FOLDER, module));
/**
 * Small modules most signed-in screens share: in the frame's chunk they cost a few KB on the screens that do not use
 * them, and spare the rest a file each (each compressed on its own, and a request).
 */
const SCREENS_SHARE = ['views/PageHeading.tsx', 'widgets/Skeleton.tsx', 'widgets/format.ts', 'contract/common.ts', 'contract/requests.ts', 'services/requests.ts', 'contract/surveys.ts', 'services/surveys.ts'].map(
  (module) => join(SOURCE_FOLDER, module),
);
const HTTP_CLIENT = /[\\/]node_modules[\\/]ky[\\/]/;
const PUBLIC_PAGES = ['SignIn', 'SignUp', 'ForgotPassword', 'ResetPassword', 'Unlock', 'ConfirmEmail', 'MfaEnrollment', 'NotFound'].map(
  (view) => `views/${view}.tsx`,
);

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/** The app's own modules (below src/) that `views` import, directly or through other modules of the app. */
function appModulesOf(graph: ModuleGraph, views: string[]): Set<string> {
  const found = new Set<string>();
  const visit = (id: string) => {
    if (found.has(id) || !id.startsWith(SOURCE_FOLDER) || id.includes('node_modules')) return;
    found.add(id);
    for (const imported of graph.getModuleInfo(id)?.importedIds ?? []) visit(imported);
  };
  for (const view of views) visit(join(SOURCE_FOLDER, view));
  for (const view of views) found.delete(join(SOURCE_FOLDER, view));
  return found;
}

/**
 * Issue 10: what the frame imports beyond the entry (with the packages it uses, the session check and the HTTP client)
 * in one chunk rather than the twenty-odd small ones Rolldown makes of it. Each chunk is a request, and on a phone's
 * link a request costs a round trip: Lighthouse put the Dashboard's largest paint at 2.9 s with the small chunks and
 * 2.5 s with one. The home screen's modules are not in it (DESIGN §9): they were, and then every signed-in page loaded
 * the Dashboard's tabs and lists (~17 KB gzipped), the modules they share with other screens pulling them in. The
 * screens themselves stay chunks of their own (the page table links them), and nothing a public page imports goes in,
 * so the sign-in page never loads it (tests/e2e/routes.spec.ts). A second such chunk, for the benefits landing, took
 * packages the public pages share, and the sign-in page then loaded both.
 */
function frameChunk() {
  let members: Set<string> | undefined;
  const name = (id: string, graph: ModuleGraph) => {
    if (!members) {
      const publicModules = appModulesOf(graph, PUBLIC_PAGES);
      members = new Set([...appModulesOf(graph, FRAME), ...SESSION_CHECK, ...SCREENS_SHARE].filter((module) => !publicModules.has(module)));
    }
    return members.has(id) || HTTP_CLIENT.test(id) ? 'frame' : null;
  };
  return { debugName: 'frame', name };
}

export default defineConfig(({ isSsrBuild, mode }) => ({
  // The SSR build (src/prerender.tsx, for scripts/prerender.ts) is a build-time tool: no files of the app's own.
  plugins: isSsrBuild
    ? [react()]
    : [react(), versionFile(), pageHead(loadEnv(mode, import.meta.dirname, 'VITE_').VITE_API_BASE_URL ?? ''), precompressedCopies()],
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
            // What every page loads beyond the entry, public or signed in: the kit's Message, and React Stately's
            // controlled-state hook (the home screen's tabs and the text fields both use it; in TextInput's chunk it
            // made every signed-in page load that whole chunk, and in one of its own it was one more file for all).
            { name: 'everyPage', test: /[\\/](src[\\/]widgets[\\/]Message\.tsx|react-stately[\\/].*[\\/]useControlledState\.mjs)$/ },
            // With the public forms' shared rules (views/forms.ts), which only pages with text fields use.
            { name: 'TextInput', test: /[\\/]src[\\/](widgets[\\/]TextInput\.tsx|views[\\/]forms\.ts)$/ },
            frameChunk(),
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
