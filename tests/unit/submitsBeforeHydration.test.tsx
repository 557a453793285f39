import { act } from '@testing-library/react';
import { type FormEvent } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HydrationBoundary } from '../../src/app/hydration.tsx';
import { holdSubmitsUntilHydrated, releaseHeldSubmit } from '../../src/widgets/submitsBeforeHydration.ts';

/** A form as a prerendered page has it: sent to the app's handler once hydrated, natively before. */
function SignUpForm({ onSend }: { onSend: (submitter: string | undefined) => void }) {
  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSend((event.nativeEvent as SubmitEvent).submitter?.textContent ?? undefined);
  };
  return (
    <form method="post" onSubmit={send}>
      <input name="email" />
      <button type="submit">Sign up</button>
    </form>
  );
}

function prerenderedPage(onSend: (submitter: string | undefined) => void) {
  const page = (
    <HydrationBoundary prerendered onHydrated={releaseHeldSubmit}>
      <SignUpForm onSend={onSend} />
    </HydrationBoundary>
  );
  const container = document.createElement('div');
  container.innerHTML = renderToString(page);
  document.body.append(container);
  return { button: container.querySelector('button')!, hydrate: () => act(async () => void hydrateRoot(container, page)) };
}

/** Whether the browser would have posted the form: nobody prevented the submit event. */
function postedNatively(): () => boolean {
  let posted = false;
  const listener = (event: Event) => (posted = !event.defaultPrevented);
  document.addEventListener('submit', listener);
  return () => {
    document.removeEventListener('submit', listener);
    return posted;
  };
}

afterEach(() => {
  releaseHeldSubmit();
  document.body.replaceChildren();
});

describe('a form sent before the page is hydrated (issue 10)', () => {
  it('is held rather than posted, then sent to the app, once, with its button, when the page is hydrated', async () => {
    const onSend = vi.fn();
    const { button, hydrate } = prerenderedPage(onSend);
    holdSubmitsUntilHydrated();
    const posted = postedNatively();

    button.click();
    expect(posted()).toBe(false);
    expect(onSend).not.toHaveBeenCalled();

    await hydrate();
    expect(onSend).toHaveBeenCalledExactlyOnceWith('Sign up');
  });

  it('holds nothing once the page is hydrated: the app handles what is sent from then on', async () => {
    const onSend = vi.fn();
    const { button, hydrate } = prerenderedPage(onSend);
    holdSubmitsUntilHydrated();
    await hydrate();
    expect(onSend).not.toHaveBeenCalled();

    button.click();
    expect(onSend).toHaveBeenCalledExactlyOnceWith('Sign up');
  });
});
