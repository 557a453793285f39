// A local S3-protocol server (s3rver) on loopback, for the upload suites and the e2e upload story run with STORAGE=s3.
// It checks AWS signature v4 (query and header), expiry, and answers CORS preflights from the bucket's own rule, so a
// wrong signature, addressing style or CORS rule fails here as it would on a real bucket. It runs in a process of its
// own (this file, run as a script), where its one canonicalisation bug can be corrected without touching anything else.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface S3rverOptions {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  /** Path-style only: the app sets forcePathStyle for a custom S3_ENDPOINT. */
  vhostBuckets: boolean;
  configureBuckets: { name: string; configs: string[] }[];
}
interface KoaContext {
  path: string;
  mountPath?: string;
  state: { vhost?: boolean };
}
interface S3rver {
  middleware: ((context: KoaContext, next: () => Promise<void>) => Promise<void>)[];
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as new (options: S3rverOptions) => S3rver;

export const LOCAL_S3_BUCKET = 'concierge-uploads';

/** The CORS rule README.md "Files on S3" asks of a real bucket. */
function bucketCorsRule(appOrigin: string): string {
  return `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>${appOrigin}</AllowedOrigin>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedHeader>content-type</AllowedHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;
}

export interface LocalS3 {
  endpoint: string;
  /** The configuration variables that point the app at this server. */
  env: Record<string, string>;
  close(): Promise<void>;
}

async function serve(appOrigin: string, directory: string) {
  // s3rver builds SigV4's canonical query with encodeURIComponent, which leaves !'()* as they are where SigV4 (and
  // AWS) percent-encode them: every presigned GET would fail, since its Content-Disposition holds filename*=UTF-8''.
  const encodeURIComponentOnly = globalThis.encodeURIComponent;
  globalThis.encodeURIComponent = (value) =>
    encodeURIComponentOnly(value).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    vhostBuckets: false,
    configureBuckets: [{ name: LOCAL_S3_BUCKET, configs: [bucketCorsRule(appOrigin)] }],
  });
  // And it canonicalises a bucket's own address as "/bucket" where the SDK signs the "/bucket/" it sends (HeadBucket);
  // its virtual-host branch puts the mount path after the bucket's name. Just before its router, the last middleware.
  server.middleware.splice(-1, 0, (context, next) => {
    if (/^\/[^/]+\/$/.test(context.path)) {
      context.mountPath = '/';
      context.state.vhost = true;
    }
    return next();
  });
  const { port } = await server.run();
  console.log(JSON.stringify({ port }));
  // Its parent holds the other end of stdin: when the parent dies, however it dies, this server goes too.
  process.stdin.on('end', () => process.exit(0)).resume();
}

/** Starts on 127.0.0.1 on a free port, with one empty bucket whose CORS rule allows `appOrigin`. */
export async function startLocalS3(appOrigin: string): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 'lc-s3-'));
  const child = spawn(process.execPath, [import.meta.filename, appOrigin, directory], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const [ready] = (await Promise.race([once(createInterface({ input: child.stdout }), 'line'), exited])) as [string | number];
  if (typeof ready !== 'string') throw new Error(`The local S3 server exited (${ready}) before listening`);
  const endpoint = `http://127.0.0.1:${(JSON.parse(ready) as { port: number }).port}`;
  return {
    endpoint,
    env: {
      STORAGE: 's3',
      S3_BUCKET: LOCAL_S3_BUCKET,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: endpoint,
      // s3rver's one account.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async close() {
      child.kill('SIGTERM');
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

if (import.meta.main) await serve(process.argv[2], process.argv[3]);
