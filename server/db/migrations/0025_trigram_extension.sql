-- The console's search (q=) is "contains" (ILIKE '%text%') over a request's name and its employee's name and e-mail:
-- trigram indexes (next migration) answer it without reading every request. PGlite loads the extension itself
-- (server/db/client.ts); PostgreSQL has it among its contrib modules.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
