import type { ReactNode } from 'react';

/** The heading block every signed-in screen opens with. */
export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="lc-page-heading">
      <h1>{title}</h1>
      {children}
    </header>
  );
}
