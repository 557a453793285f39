import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // schema.ts holds the core tables; each feature may keep its own tables in server/db/<feature>.schema.ts.
  schema: ['./server/db/schema.ts', './server/db/*.schema.ts'],
  out: './server/db/migrations',
});
