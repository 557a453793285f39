import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TextInput } from '../../src/widgets/TextInput.tsx';
import { noteTypingBeforeHydration } from '../../src/widgets/typingBeforeHydration.ts';

/** A prerendered field of a controlled form, as the sign-in page has. */
function EmailForm({ onValue }: { onValue: (value: string) => void }) {
  const [email, setEmail] = useState('');
  return (
    <TextInput label="Email" type="email" value={email} onChange={(next) => {
      setEmail(next);
      onValue(next);
    }} />
  );
}

/** The form as a prerendered page holds it: server HTML in #root, not yet hydrated. */
function prerendered(values: string[]) {
  const container = document.createElement('div');
  container.id = 'root';
  container.innerHTML = renderToString(<EmailForm onValue={(value) => values.push(value)} />);
  document.body.append(container);
  const hydrate = () => act(async () => void hydrateRoot(container, <EmailForm onValue={(value) => values.push(value)} />));
  return { container, field: container.querySelector('input')!, hydrate };
}

function typeInto(field: HTMLInputElement, text: string) {
  field.value = text;
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('typing before hydration (issue 10: prerendered pages)', () => {
  it('keeps what the visitor typed into a prerendered field before the page was hydrated', async () => {
    const values: string[] = [];
    const { container, field, hydrate } = prerendered(values);

    // Typed while the page's JavaScript was still on its way, then more after the app started noting it.
    typeInto(field, 'ada@');
    noteTypingBeforeHydration(container);
    typeInto(field, 'ada@example.com');
    await hydrate();

    expect(field.value).toBe('ada@example.com');
    expect(values).toEqual(['ada@example.com']);
    container.remove();
  });

  it('changes nothing for a field nobody typed into', async () => {
    const values: string[] = [];
    const { container, field, hydrate } = prerendered(values);
    noteTypingBeforeHydration(container);
    await hydrate();
    expect(field.value).toBe('');
    expect(values).toEqual([]);
    container.remove();
  });
});
