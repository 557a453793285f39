/**
 * Issue 10: the public pages as real HTML. Renders each with the app's own routes and components (the SSR build of
 * src/prerender.tsx), in a window of jsdom as a signed-out visitor's first render, and writes <outDir><path>/index.html:
 * the built shell with the page inside #root, its styles linked and its chunks announced (modulepreload), so that the
 * heading and form paint before any JavaScript runs; main.tsx then hydrates them. Also writes .br and .gz copies.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { JSDOM } from 'jsdom';
import { writeCompressedCopies } from './precompress.ts';

/** The prerendered pages and the module of each (its chunk and styles come from the build's manifest). */
const PRERENDERED_PAGES = [
  { path: '/sign-in', module: 'src/views/SignIn.tsx' },
  { path: '/sign-up', module: 'src/views/SignUp.tsx' },
  { path: '/forgot-password', module: 'src/views/ForgotPassword.tsx' },
];

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/** A chunk with every chunk it imports statically, and all their styles. */
function closureOf(manifest: Record<string, ManifestChunk>, key: string, files = new Set<string>(), styles = new Set<string>()) {
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

export async function prerenderPages(outDir: string, ssrEntry: string): Promise<void> {
  const shell = readFileSync(join(outDir, 'index.html'), 'utf8');
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entry = closureOf(manifest, 'index.html');
  installWindow('http://localhost/');
  const { renderPage } = (await import(pathToFileURL(resolve(ssrEntry)).href)) as { renderPage: (url: string) => Promise<string> };
  for (const page of PRERENDERED_PAGES) {
    if (!manifest[page.module]) throw new Error(`${page.module} is not a chunk of the build`);
    window.history.replaceState(null, '', page.path);
    const html = await renderPage(`http://localhost${page.path}`);
    const { files, styles } = closureOf(manifest, page.module);
    const links = [
      ...[...styles].filter((style) => !entry.styles.has(style)).map((style) => `<link rel="stylesheet" crossorigin href="/${style}">`),
      ...[...files].filter((file) => !entry.files.has(file)).map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    ];
    const document = shell.replace('</head>', `  ${links.join('\n    ')}\n  </head>`).replace('<div id="root"></div>', `<div id="root">${html}</div>`);
    if (document === shell) throw new Error('The shell has no <div id="root"></div> to fill');
    const target = join(outDir, page.path, 'index.html');
    await mkdir(join(outDir, page.path), { recursive: true });
    await writeFile(target, document);
    await writeCompressedCopies(target);
  }
}
