/**
 * Issue 10: every page of the app as real HTML. Renders each page pattern of the route table with the app's own routes
 * and components (the SSR build of src/prerender.tsx), in a window of jsdom as a visitor's first render (a public page
 * signed out, a signed-in one as the frame's skeleton while the session is resolved), and writes it into the build:
 * the built shell with the page inside #root, its styles linked and the chunks its hydration needs announced
 * (modulepreload), so that it paints before any JavaScript runs and that code arrives side by side; main.tsx then
 * hydrates it (a signed-in page's own chunks come beside the session check, router.tsx). Also
 * writes .br and .gz copies, and the page table the server answers from (PAGE_TABLE).
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { JSDOM } from 'jsdom';
import { PAGE_TABLE, PRERENDERED_PAGES, type PageTableEntry } from '../server/pageTable.ts';
import type { RenderedPage, RoutePattern } from '../src/prerender.tsx';
import { writeCompressedCopies } from './precompress.ts';

/** Stands for each parameter of a pattern; a page that shows it could not be sent for another value. */
const SAMPLE_PARAMETER = 'prerendered-parameter';

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isDynamicEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

interface PrerenderModule {
  renderPage(url: string): Promise<RenderedPage>;
  routePatterns(): RoutePattern[];
}

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8')) as Manifest;

/** A chunk with every chunk it imports statically, and all their styles. */
function closureOf(manifest: Manifest, key: string, files = new Set<string>(), styles = new Set<string>()) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return { files, styles };
  files.add(chunk.file);
  for (const style of chunk.css ?? []) styles.add(style);
  for (const imported of chunk.imports ?? []) closureOf(manifest, imported, files, styles);
  return { files, styles };
}

/** The browser globals the app's modules read as they load; jsdom's, at the page's address. */
function installWindow(url: string) {
  const dom = new JSDOM('<!doctype html><html><body><div id="root"></div></body></html>', { url, pretendToBeVisual: true });
  const browser = dom.window as unknown as Record<string, unknown>;
  for (const name of ['window', 'document', 'navigator', 'location', 'history', 'localStorage', 'sessionStorage', 'matchMedia', 'getComputedStyle', 'requestAnimationFrame', 'cancelAnimationFrame', 'HTMLElement', 'Element', 'Node', 'MutationObserver', 'CustomEvent']) {
    Object.defineProperty(globalThis, name, { value: browser[name], configurable: true, writable: true });
  }
}

/** The source module of each lazily loaded module of the SSR build: how a rendered page names the chunks it needs. */
async function sourcesOfModules(ssrDir: string): Promise<Map<unknown, string>> {
  const sources = new Map<unknown, string>();
  for (const [source, chunk] of Object.entries(readManifest(ssrDir))) {
    if (chunk.isDynamicEntry) sources.set(await import(pathToFileURL(resolve(ssrDir, chunk.file)).href), source);
  }
  return sources;
}

/** An address the pattern answers: optional segments left out, each parameter (and a splat) the sample. */
function sampleAddress(pattern: string): string {
  return pattern.replace(/\/:\w+\?/g, '').replace(/:\w+/g, SAMPLE_PARAMETER).replace('*', 'not-found') || '/';
}

/** Where the page of a pattern is written: below pages/, a parameter in brackets. */
function pageFileOf(pattern: string): string {
  return `${PRERENDERED_PAGES}${pattern.replace(/:(\w+)\??/g, '[$1]').replace('*', '[not-found]')}.html`;
}

export async function prerenderPages(outDir: string, ssrDir: string, ssrEntry: string): Promise<void> {
  const shell = readFileSync(join(outDir, 'index.html'), 'utf8');
  if (!shell.includes('<div id="root"></div>')) throw new Error('The shell has no <div id="root"></div> to fill');
  const manifest = readManifest(outDir);
  const entry = closureOf(manifest, 'index.html');
  installWindow('http://localhost/');
  const { renderPage, routePatterns } = (await import(pathToFileURL(resolve(ssrEntry)).href)) as PrerenderModule;
  const sources = await sourcesOfModules(ssrDir);
  const table: PageTableEntry[] = [];
  for (const { path, isPage } of routePatterns()) {
    if (!isPage) {
      table.push({ path, file: 'index.html', status: 200 });
      continue;
    }
    const address = sampleAddress(path);
    window.history.replaceState(null, '', address);
    const { html, modules, modulesAfterSession } = await renderPage(`http://localhost${address}`);
    if (html.includes(SAMPLE_PARAMETER)) throw new Error(`The page of ${path} shows its address, so it cannot be prerendered`);
    const chunksOf = (pageModules: unknown[], files = new Set(entry.files), styles = new Set(entry.styles)) => {
      for (const module of pageModules) {
        const source = sources.get(module);
        if (!source || !manifest[source]) throw new Error(`A module of the page of ${path} is not a chunk of the build`);
        closureOf(manifest, source, files, styles);
      }
      return { files, styles };
    };
    const shown = chunksOf(modules);
    // What renders once the session is known arrives with the page rather than after the app has started: its code
    // fetched (not run), its styles fetched without holding the skeleton's first paint.
    const afterSession = chunksOf(modulesAfterSession, new Set(shown.files), new Set(shown.styles));
    const added = <T,>(all: Set<T>, before: Set<T>) => [...all].filter((item) => !before.has(item));
    const links = [
      ...added(shown.styles, entry.styles).map((style) => `<link rel="stylesheet" crossorigin href="/${style}">`),
      ...added(afterSession.styles, shown.styles).map((style) => `<link rel="preload" as="style" crossorigin href="/${style}">`),
      ...added(afterSession.files, entry.files).map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    ];
    const document = shell
      .replace('</head>', `  ${links.join('\n    ')}\n  </head>`)
      .replace('<div id="root"></div>', `<div id="root">${html}</div>`);
    const file = pageFileOf(path);
    await mkdir(dirname(join(outDir, file)), { recursive: true });
    await writeFile(join(outDir, file), document);
    await writeCompressedCopies(join(outDir, file));
    // The catch-all is NotFound: an address the app does not know is answered as such.
    table.push({ path, file, status: path.endsWith('*') ? 404 : 200 });
  }
  await writeFile(join(outDir, PAGE_TABLE), JSON.stringify(table, null, 2));
}
