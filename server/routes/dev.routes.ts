import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { outboxQuery, outboxResponse } from '../../src/contract/dev.ts';
import type { Database } from '../db/client.ts';
import { listOutbox } from '../domain/outbox.ts';

/**
 * Development aids under /api/dev, registered only outside production: the outbox, so that developers and the
 * end-to-end tests can read the reset links, unlock links and SMS codes the server sent.
 */
const devRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get('/outbox', { schema: { querystring: outboxQuery, response: { 200: outboxResponse } } }, async (request) => {
    const rows = await listOutbox(db, request.query);
    return {
      messages: rows.map((row) => ({
        id: row.id,
        channel: row.channel,
        to: row.recipient,
        subject: row.subject,
        text: row.body,
        links: row.links,
        created_at: row.createdAt.toISOString(),
        delivered_at: row.deliveredAt?.toISOString() ?? null,
      })),
    };
  });
};

export default devRoutes;
