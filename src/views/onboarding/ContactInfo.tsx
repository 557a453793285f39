import { PendingScreen } from '../PendingScreen.tsx';

export default function ContactInfo() {
  return <PendingScreen title="Contact Info" />;
}
