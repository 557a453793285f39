import { LinkButton } from '../widgets/Button.tsx';

export default function NotFound() {
  return (
    <main className="lc-not-found">
      <h1>Oops! We can't find that page.</h1>
      <LinkButton href="/">Go to Home</LinkButton>
    </main>
  );
}
