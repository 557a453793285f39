import { PageHeading } from './PageHeading.tsx';

/**
 * The frame of a screen whose feature has not landed yet (requests, offerings, onboarding steps): the route,
 * its title and guard are real; the content says plainly that there is nothing here yet.
 */
export function PendingScreen({ title }: { title: string }) {
  return (
    <>
      <PageHeading title={title} />
      <p>Nothing to show here yet.</p>
    </>
  );
}
