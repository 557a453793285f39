import { PendingScreen } from '../PendingScreen.tsx';

export default function AboutYou() {
  return <PendingScreen title="About You" />;
}
