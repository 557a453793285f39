import { readFileSync } from 'node:fs';

/**
 * Descriptors kept for everything but live streams: the database pool and its LISTEN connection, log and static
 * files, outgoing HTTP (S3, SMTP, Sentry), and the ordinary requests arriving meanwhile.
 */
export const DESCRIPTORS_BESIDE_STREAMS = 512;

/** The process's soft limit on open files, or null where the system does not tell (it is read on Linux). */
export function openFilesLimit(limits = readProcLimits()): number | null {
  const match = limits?.match(/^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m);
  if (!match) return null;
  return match[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(match[1]);
}

function readProcLimits(): string | null {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
}

/** How many live streams this process can hold: each takes one descriptor (its connection). */
export function liveStreamCapacity(limit = openFilesLimit()): number {
  if (limit === null) return Number.POSITIVE_INFINITY;
  return Math.max(limit - DESCRIPTORS_BESIDE_STREAMS, 0);
}
