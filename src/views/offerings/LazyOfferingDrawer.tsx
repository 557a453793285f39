import { Suspense } from 'react';
import { lazyPage } from '../../services/lazyPage.ts';
import type { OfferingDrawerActor } from './OfferingDrawer.tsx';

const OfferingDrawer = lazyPage<{ actor: OfferingDrawerActor }>(() =>
  import('./OfferingDrawer.tsx').then((module) => ({ default: module.OfferingDrawer })),
);

/**
 * The offering drawer, its code (react-aria's dialog among it) a chunk of its own: a page of offerings paints first,
 * and the drawer follows, long before anyone opens an offering (issue 10).
 */
export function LazyOfferingDrawer({ actor }: { actor: OfferingDrawerActor }) {
  return (
    <Suspense fallback={null}>
      <OfferingDrawer actor={actor} />
    </Suspense>
  );
}
