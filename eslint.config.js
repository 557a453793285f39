import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * DESIGN's layering: contract <- services <- machines <- views <- app (the shell: routes, layouts, guards), widgets
 * beside them, depending on nothing of the app; the server shares only the contract with the browser. Each layer is
 * kept from importing the ones named in `from`. Views call no service: they send events to their flow, and read from
 * services only what makes no call (the rules and words of a screen, the configuration, the lazy loader).
 */
const VIEWS_MAY_READ = ['./threadRules.ts', './account.messages.ts', './config.ts', './lazyPage.ts'];
const LAYERS = [
  { target: 'src/contract', from: ['src/app', 'src/views', 'src/machines', 'src/services', 'src/widgets', 'server'] },
  { target: 'src/services', from: ['src/app', 'src/views', 'src/machines', 'src/widgets'] },
  { target: 'src/machines', from: ['src/app', 'src/views', 'src/widgets'] },
  { target: 'src/views', from: ['src/app'] },
  { target: 'src/views', from: 'src/services', except: VIEWS_MAY_READ },
  { target: 'src/widgets', from: ['src/app', 'src/views', 'src/machines', 'src/services'] },
  { target: 'src', from: ['server'] },
  { target: 'server', from: ['src/app', 'src/views', 'src/machines', 'src/services', 'src/widgets'] },
];

/**
 * The server's layers (issue 27): routes -> domain -> db, never back up. The domain reaches mail, SMS and file storage
 * through the port interfaces of server/domain/ports, which the adapters implement; only the composition root (app.ts,
 * main.ts) picks an adapter. server/domain/shared is the kernel every context may use, and uses none of them.
 */
const SERVER_LAYERS = [
  {
    target: 'server/db/*.ts',
    from: ['server/domain', 'server/routes', 'server/plugins', 'server/adapters'],
    message: 'The database layer knows no layer above it.',
  },
  {
    target: 'server/domain',
    from: ['server/routes', 'server/plugins', 'server/adapters', 'server/app.ts', 'server/main.ts'],
    message: 'The domain knows no HTTP and no adapter: take a port of server/domain/ports.',
  },
  {
    target: 'server/domain/shared',
    from: 'server/domain',
    except: ['./shared', './ports'],
    message: 'The shared kernel depends on no bounded context.',
  },
  {
    target: 'server/domain/ports',
    from: 'server/domain',
    except: ['./ports'],
    message: 'A port is an interface of its own: it depends on no bounded context.',
  },
  {
    target: 'server/adapters',
    from: ['server/domain', 'server/routes', 'server/plugins', 'server/db'],
    except: ['./ports'],
    message: 'An adapter implements a port of server/domain/ports and knows nothing else of the server.',
  },
  {
    target: ['server/routes', 'server/plugins'],
    from: 'server/adapters',
    // The disk store's own signed addresses (uploads.routes.ts) are that adapter's HTTP face.
    except: ['./storage/disk.ts'],
    message: 'Routes reach an adapter through its port (server/domain/ports).',
  },
];

const ZOD_PATH = {
  name: 'zod',
  message: "The browser loads src/: import * as z from 'zod/mini' (functional API: z.optional(x), x.check(z.minLength(1))).",
};
const REACT_ARIA_PATH = {
  name: 'react-aria-components',
  message: 'Use the kit: src/widgets wraps each React Aria component the app uses (add a wrapper there for a new one).',
};

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'server/db/migrations', 'test-results', 'playwright-report', 'flows'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // DESIGN §9: the browser's JavaScript budget. Classic zod weighs about 27 KB gzipped, zod/mini a third of it,
    // and src/contract is loaded by the browser as well as the server.
    // Issue 27: the kit (src/widgets) owns every React Aria component, so that a fix to one (focus, busy state,
    // contrast) reaches every screen; screens use the kit's wrappers.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/widgets/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [ZOD_PATH, REACT_ARIA_PATH],
          patterns: [{ group: ['react-aria-components/*', 'react-aria', 'react-aria/*', 'react-stately'], message: REACT_ARIA_PATH.message }],
        },
      ],
    },
  },
  {
    files: ['src/widgets/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { paths: [ZOD_PATH] }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      // Modules that import each other at run time (type-only imports are erased, and are not counted).
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [...LAYERS, ...SERVER_LAYERS],
        },
      ],
    },
  },
  {
    // Drizzle's tables refer to each other through callbacks (`references(() => users.id)`) that run once every module
    // has loaded: the schema's files may import each other.
    files: ['server/db/*schema.ts'],
    rules: { 'import-x/no-cycle': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['scripts/**/*.{js,mjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
