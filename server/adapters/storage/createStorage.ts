import type { Config } from '../../config.ts';
import { type DiskStorage, createDiskStorage, loadSigningSecret } from './disk.ts';
import type { S3Storage } from './s3.ts';

/** `STORAGE=s3` selects the S3-compatible store; anything else keeps files under `${DATA_DIR}/uploads`. */
export async function createStorage(config: Config): Promise<DiskStorage | S3Storage> {
  if (config.STORAGE === 's3') {
    // Loaded only when selected: the AWS SDK is large and a disk deployment never needs it.
    const { createS3Storage } = await import('./s3.ts');
    return createS3Storage(config);
  }
  return createDiskStorage({
    root: `${config.DATA_DIR}/uploads`,
    secret: config.SIGNING_SECRET ?? loadSigningSecret(config.DATA_DIR),
  });
}
