import { Link } from 'react-router';
import './Logo.css';

export function Logo({ to = '/' }: { to?: string }) {
  return (
    <Link to={to} className="lc-logo" aria-label="Life Concierge home">
      <svg viewBox="0 0 64 64" width="32" height="32" aria-hidden="true" focusable="false">
        <rect width="64" height="64" rx="14" fill="#1f4b99" />
        <path d="M18 44V20h6v19h14v5z" fill="#fff" />
        <circle cx="44" cy="24" r="6" fill="#f2b84b" />
      </svg>
      <span className="lc-logo__name">Life Concierge</span>
    </Link>
  );
}
