import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { type Config, ConfigError } from '../../config.ts';
import { type FileStorage, SIGNED_URL_TTL_SECONDS, contentDisposition } from '../../domain/ports/fileStorage.ts';

export interface S3Storage extends FileStorage {
  readonly kind: 's3';
}

/** "bytes 0-63/1234" -> 1234 */
function totalSizeOf(contentRange: string | undefined, contentLength: number | undefined): number {
  const total = contentRange?.match(/\/(\d+)$/)?.[1];
  return total ? Number(total) : (contentLength ?? 0);
}

/**
 * An S3-compatible bucket (AWS, MinIO, R2...). Browsers PUT to and GET from the bucket directly, so the bucket's
 * CORS rules must allow PUT from the app's origin. Without S3_ACCESS_KEY_ID the SDK's default credential chain
 * applies (instance roles and the like). A custom S3_ENDPOINT implies path-style addressing.
 */
function bucketAndClient(config: Config): { bucket: string; client: S3Client } {
  const bucket = config.S3_BUCKET;
  if (!bucket) throw new Error('S3_BUCKET is required when STORAGE=s3');
  const client = new S3Client({
    region: config.S3_REGION ?? 'us-east-1',
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_ENDPOINT !== undefined,
    credentials:
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
        : undefined,
    // By default the SDK signs a CRC32 of the body into every PutObject, and a presigned PUT has no body when it is
    // signed: the browser's bytes would then never match the checksum of nothing.
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  return { bucket, client };
}

/**
 * Refuses to start, with a message naming the bucket and the endpoint, unless the bucket answers HeadBucket (which
 * needs s3:ListBucket on the bucket).
 */
export async function checkBucketAnswers(config: Config, timeoutMs = 10_000): Promise<void> {
  const { bucket, client } = bucketAndClient(config);
  const endpoint = config.S3_ENDPOINT ?? `https://s3.${config.S3_REGION ?? 'us-east-1'}.amazonaws.com`;
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    // HEAD answers carry no error body: the status is all S3 says.
    const reason =
      error instanceof S3ServiceException
        ? `${error.name} (HTTP ${error.$metadata.httpStatusCode ?? '?'})`
        : error instanceof Error ? error.message : String(error);
    throw new ConfigError(
      `The S3 bucket "${bucket}" does not answer at ${endpoint}: ${reason}.\n` +
        '  Check S3_BUCKET, S3_REGION, S3_ENDPOINT and the credentials: the app needs s3:ListBucket on the bucket, and ' +
        's3:PutObject, s3:GetObject and s3:DeleteObject on its objects (README "Files on S3").',
    );
  } finally {
    client.destroy();
  }
}

export function createS3Storage(config: Config): S3Storage {
  const { bucket, client } = bucketAndClient(config);

  return {
    kind: 's3',

    presignPut(key, contentType) {
      return getSignedUrl(client, new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: contentType }), {
        expiresIn: SIGNED_URL_TTL_SECONDS,
      });
    },

    presignGet(key, filename, contentType) {
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ResponseContentType: contentType,
        ResponseContentDisposition: contentDisposition(filename, contentType),
      });
      return getSignedUrl(client, command, { expiresIn: SIGNED_URL_TTL_SECONDS });
    },

    async write(key, chunks) {
      // Uploads are capped at 25 MiB, so holding one in memory is cheaper than a multipart upload.
      const parts: Uint8Array[] = [];
      for await (const chunk of chunks) parts.push(chunk);
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.concat(parts) }));
    },

    async read(key, range) {
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: key, Range: range && `bytes=${range.start}-${range.end}` }),
        );
        if (!(answer.Body instanceof Readable)) throw new Error('The S3 client returned a non-stream body');
        return { body: answer.Body, size: totalSizeOf(answer.ContentRange, answer.ContentLength) };
      } catch (error) {
        if (error instanceof S3ServiceException) {
          if (error.name === 'NoSuchKey') return null;
          // A range read of an empty object: there is an object, it has no bytes.
          if (error.name === 'InvalidRange') return { body: Readable.from([]), size: 0 };
        }
        throw error;
      }
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
