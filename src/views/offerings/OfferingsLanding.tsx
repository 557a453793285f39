import { PendingScreen } from '../PendingScreen.tsx';

export default function OfferingsLanding() {
  return <PendingScreen title="Benefits & Offers" />;
}
