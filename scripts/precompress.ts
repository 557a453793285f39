// Issue 10: every text file of a build also as .br (quality 11) and .gz (level 9), compressed once so that the server
// (@fastify/static's preCompressed) sends them as they are. Used by the Vite build and by the prerender step.
import { readFile, writeFile } from 'node:fs/promises';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

/** Text files worth compressing; source maps are left as they are (only developers fetch them). */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml)$/;

export async function writeCompressedCopies(path: string): Promise<void> {
  const source = await readFile(path);
  const brotli = brotliCompressSync(source, {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.length },
  });
  await Promise.all([writeFile(`${path}.br`, brotli), writeFile(`${path}.gz`, gzipSync(source, { level: 9 }))]);
}
