// A stand-in for Sentry's ingest endpoint: keeps every envelope it is sent and decodes it, so that the monitoring
// journey can check what would have reached Sentry. It speaks the envelope format of
// https://develop.sentry.dev/sdk/data-model/envelopes/ (items with or without an explicit length).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateSync } from 'node:zlib';

export interface EnvelopeItem {
  type: string;
  /** The payload: parsed JSON, or the text of a replay recording (decompressed), or the raw text. */
  payload: unknown;
  /** Every byte of the item as text, for "does this secret appear anywhere" checks. */
  text: string;
}

export interface Envelope {
  project: string;
  /** The request's headers as the stand-in received them. */
  headers: Record<string, string | string[] | undefined>;
  header: Record<string, unknown>;
  items: EnvelopeItem[];
}

function readLine(bytes: Buffer, from: number): { line: Buffer; next: number } {
  const end = bytes.indexOf(0x0a, from);
  return end < 0 ? { line: bytes.subarray(from), next: bytes.length } : { line: bytes.subarray(from, end), next: end + 1 };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A replay recording is `{"segment_id":n}\n` then the rrweb events, zlib-compressed unless compression failed. */
function decodeRecording(payload: Buffer): string {
  const { line, next } = readLine(payload, 0);
  const body = payload.subarray(next);
  let events: string;
  try {
    events = inflateSync(body).toString('utf8');
  } catch {
    events = body.toString('utf8');
  }
  return `${line.toString('utf8')}\n${events}`;
}

export function decodeEnvelope(project: string, bytes: Buffer, headers: Envelope['headers'] = {}): Envelope {
  let { line, next } = readLine(bytes, 0);
  const header = JSON.parse(line.toString('utf8')) as Record<string, unknown>;
  const items: EnvelopeItem[] = [];
  while (next < bytes.length) {
    ({ line, next } = readLine(bytes, next));
    if (line.length === 0) continue;
    const itemHeader = JSON.parse(line.toString('utf8')) as { type: string; length?: number };
    let payload: Buffer;
    if (typeof itemHeader.length === 'number') {
      payload = bytes.subarray(next, next + itemHeader.length);
      next += itemHeader.length + 1;
    } else {
      ({ line: payload, next } = readLine(bytes, next));
    }
    const text = itemHeader.type === 'replay_recording' ? decodeRecording(payload) : payload.toString('utf8');
    items.push({ type: itemHeader.type, payload: itemHeader.type === 'replay_recording' ? text : parseJson(text), text });
  }
  return { project, headers, header, items };
}

export interface SentryCollector {
  envelopes: Envelope[];
  port: number;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1:port (0: any free port) for POST /api/<project>/envelope/, as a DSN
 * http://key@127.0.0.1:port/<project> names.
 */
export function startSentryCollector(port: number): Promise<SentryCollector> {
  const envelopes: Envelope[] = [];
  const server: Server = createServer((request, response) => {
    const match = /^\/api\/(\d+)\/envelope\/?/.exec(request.url ?? '');
    if (request.method !== 'POST' || !match) {
      response.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        envelopes.push(decodeEnvelope(match[1], Buffer.concat(chunks), request.headers));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch (error) {
        response.writeHead(400).end(String(error));
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () =>
      resolve({
        envelopes,
        port: (server.address() as AddressInfo).port,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    );
  });
}
