import { Outlet } from 'react-router';
import { useHydrating } from './hydration.tsx';
import { Logo } from '../widgets/Logo.tsx';
import './AuthLayout.css';

/** Each quote with the member who said it: a quote is never shown under someone else's name. */
const TESTIMONIALS: readonly { quote: string; attribution: string }[] = [
  {
    quote: 'I handed off the car registration on Monday and had the renewal in my inbox by Wednesday.',
    attribution: 'Account executive, always on the road',
  },
  {
    quote: 'Finding a vet who could see our dog the same week felt impossible. My concierge did it in an afternoon.',
    attribution: 'Operations lead and dog owner',
  },
  {
    quote: 'Our move had a hundred little tasks. Life Concierge took the boring ones off my plate.',
    attribution: 'Software engineer who just moved cities',
  },
  {
    quote: 'I finally understood my benefits after one conversation, and I did not have to read a single PDF.',
    attribution: 'Nurse, night shifts',
  },
  {
    quote: 'They sorted out an insurance claim I had been putting off for months.',
    attribution: 'Teacher and first-time homeowner',
  },
  {
    quote: 'It is like having a very organised friend who never gets tired of phone queues.',
    attribution: 'Product manager and parent of two',
  },
];

/** Picked once per page load. */
const PICKED = TESTIMONIALS[Math.floor(Math.random() * TESTIMONIALS.length)]!;
/** What a prerendered page shows, and so the render that hydrates it, before the picked one takes its place. */
const PRERENDERED = TESTIMONIALS[0]!;

/** The public screens' frame (SPEC §1): the form beside a random testimonial and an illustration. */
export function AuthLayout() {
  const testimonial = useHydrating() ? PRERENDERED : PICKED;
  return (
    <div className="lc-auth">
      <main className="lc-auth__main">
        <Logo />
        <div className="lc-auth__content">
          <Outlet />
        </div>
      </main>
      <aside className="lc-auth__aside" aria-label="What members say">
        <Illustration />
        <figure className="lc-auth__testimonial">
          <blockquote>
            <p>“{testimonial.quote}”</p>
          </blockquote>
          <figcaption>— {testimonial.attribution}</figcaption>
        </figure>
      </aside>
    </div>
  );
}

function Illustration() {
  return (
    <svg className="lc-auth__illustration" viewBox="0 0 320 200" aria-hidden="true" focusable="false">
      <rect x="20" y="30" width="180" height="130" rx="16" fill="#ffffff" opacity="0.95" />
      <rect x="40" y="55" width="120" height="12" rx="6" fill="#c9d6f2" />
      <rect x="40" y="80" width="90" height="12" rx="6" fill="#c9d6f2" />
      <rect x="40" y="105" width="140" height="12" rx="6" fill="#c9d6f2" />
      <circle cx="46" cy="140" r="8" fill="#2f9e6e" />
      <path d="M42 140l3 3 6-6" stroke="#fff" strokeWidth="2" fill="none" />
      <rect x="60" y="134" width="80" height="12" rx="6" fill="#c9d6f2" />
      <rect x="150" y="20" width="150" height="90" rx="16" fill="#f2b84b" />
      <rect x="168" y="42" width="100" height="10" rx="5" fill="#ffffff" opacity="0.9" />
      <rect x="168" y="62" width="70" height="10" rx="5" fill="#ffffff" opacity="0.9" />
      <circle cx="260" cy="150" r="30" fill="#ffffff" opacity="0.95" />
      <path d="M248 150h24M260 138v24" stroke="#1f4b99" strokeWidth="5" strokeLinecap="round" />
    </svg>
  );
}
