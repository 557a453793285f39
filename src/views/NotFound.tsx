import { LinkButton } from '../widgets/Button.tsx';
import './NotFound.css';

/** SPEC §2 NotFound, inside the app's frame so that the navigation stays at hand. */
export default function NotFound() {
  return (
    <section className="lc-not-found" aria-labelledby="not-found-heading">
      <svg className="lc-not-found__illustration" viewBox="0 0 120 120" aria-hidden="true" focusable="false">
        <circle cx="52" cy="52" r="34" fill="var(--lc-color-primary-tint)" stroke="var(--lc-color-brand)" strokeWidth="6" />
        <path d="M77 77l28 28" stroke="var(--lc-color-brand)" strokeWidth="10" strokeLinecap="round" />
        <path d="M40 44h.01M64 44h.01M40 66c7-6 17-6 24 0" stroke="var(--lc-color-brand)" strokeWidth="6" strokeLinecap="round" fill="none" />
      </svg>
      <h1 id="not-found-heading">Oops! We can't find that page.</h1>
      <LinkButton href="/">Go to Home</LinkButton>
    </section>
  );
}
