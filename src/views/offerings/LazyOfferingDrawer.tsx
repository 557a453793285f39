import { useSelector } from '@xstate/react';
import { Suspense } from 'react';
import { lazyPage } from '../../services/lazyPage.ts';
import { useOpenedOnce } from '../../widgets/useOpenedOnce.ts';
import type { OfferingDrawerActor } from './OfferingDrawer.tsx';

const OfferingDrawer = lazyPage<{ actor: OfferingDrawerActor }>(() =>
  import('./OfferingDrawer.tsx').then((module) => ({ default: module.OfferingDrawer })),
);

/**
 * The offering drawer, its code (react-aria's dialog among it) fetched when an offering is first opened: the pages of
 * offerings paint, and stay within their weight budget, without it (issue 10).
 */
export function LazyOfferingDrawer({ actor }: { actor: OfferingDrawerActor }) {
  const openedOnce = useOpenedOnce(useSelector(actor, (snapshot) => snapshot.matches('open')));
  if (!openedOnce) return null;
  return (
    <Suspense fallback={null}>
      <OfferingDrawer actor={actor} />
    </Suspense>
  );
}
