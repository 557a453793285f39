import { matchRoutes } from 'react-router';

/**
 * Issue 10: where the build writes its page table (scripts/prerender.ts), below the build's folder: each address
 * pattern of the app's routes, and the page the server sends for it. Dot folders are not served.
 */
export const PAGE_TABLE = '.vite/pages.json';
/** The folder of the prerendered pages, below the build's folder. */
export const PRERENDERED_PAGES = 'pages';

export interface PageTableEntry {
  /** A pattern of the app's route table, e.g. `/reset-password/:resetToken`, or `/*` for every other address. */
  path: string;
  /** The file below the build's folder: the prerendered page, or the bare shell where the app only redirects. */
  file: string;
  status: number;
}

/**
 * The page for an address, matched as the app's router matches it (the same ranking: `/requests/new` is its redirect,
 * not a request's page); the bare shell for an address no pattern answers.
 */
export function pageFor(table: PageTableEntry[], pathname: string): Pick<PageTableEntry, 'file' | 'status'> {
  const matches = matchRoutes(table, pathname);
  return matches?.at(-1)?.route ?? { file: 'index.html', status: 200 };
}
