import { type StatelyInspectionEvent, createBrowserInspector } from '@statelyai/inspect';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromPromise, setup } from 'xstate';
import { INSPECTOR_OPTIONS, MASKED, getInspect, inspectionRequested, maskSecrets } from '../../src/app/inspector.ts';

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('maskSecrets', () => {
  it('masks password, otp, code and token values at any depth, whatever the case of the key', () => {
    const masked = maskSecrets({
      type: 'SUBMIT',
      email: 'ada@example.com',
      password: 'hunter22',
      form: { newPassword: 'n3w-pass', password_confirmation: 'n3w-pass', OTP: '123456' },
      answers: [{ verificationCode: '654321', label: 'Phone' }],
      session: { token: 'tok', mfaToken: 'mfa', tokenExpiresAt: '2030-01-01' },
      resetToken: { nested: 'object values are masked whole' },
    });
    expect(masked).toEqual({
      type: 'SUBMIT',
      email: 'ada@example.com',
      password: MASKED,
      form: { newPassword: MASKED, password_confirmation: MASKED, OTP: MASKED },
      answers: [{ verificationCode: MASKED, label: 'Phone' }],
      session: { token: MASKED, mfaToken: MASKED, tokenExpiresAt: MASKED },
      resetToken: MASKED,
    });
  });

  it('keeps absent secrets visible as absent, and what JSON cannot hold out', () => {
    const withCycle: Record<string, unknown> = { token: null, otp: undefined, send: () => {} };
    withCycle.self = withCycle;
    expect(maskSecrets(withCycle)).toEqual({ token: null, self: '[circular]' });
  });
});

describe('inspector pipeline', () => {
  it('sends the inspector no password, otp, code or token in events, context, input or output', async () => {
    const captured: StatelyInspectionEvent[] = [];
    const inspector = createBrowserInspector({ ...INSPECTOR_OPTIONS, autoStart: false, send: (event) => captured.push(event) });
    const machine = setup({
      types: {
        context: {} as { email: string; password: string; profile: { mfaToken: string | null } },
        events: {} as { type: 'SUBMIT'; password: string; otp: string },
      },
      actors: {
        signIn: fromPromise(async ({ input }: { input: { password: string } }) => ({ token: `token-for-${input.password}` })),
      },
    }).createMachine({
      context: { email: 'ada@example.com', password: 'initial-secret', profile: { mfaToken: 'remembered-device' } },
      initial: 'editing',
      states: {
        editing: {
          on: { SUBMIT: { target: 'signingIn', actions: assign({ password: ({ event }) => event.password }) } },
        },
        signingIn: {
          invoke: { src: 'signIn', input: ({ context }) => ({ password: context.password }), onDone: 'signedIn' },
        },
        signedIn: {},
      },
    });

    const actor = createActor(machine, { inspect: inspector.inspect }).start();
    actor.send({ type: 'SUBMIT', password: 'typed-secret', otp: '246810' });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('signedIn'));
    await vi.waitFor(() => {
      expect(captured.some((event) => event.type === '@xstate.event' && 'event' in event && event.event.type === 'SUBMIT')).toBe(true);
      expect(captured.some((event) => JSON.stringify(event).includes('xstate.done.actor'))).toBe(true);
    });

    const everything = JSON.stringify(captured);
    for (const secret of ['initial-secret', 'typed-secret', '246810', 'remembered-device', 'token-for-']) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).toContain('ada@example.com');
    expect(everything).toContain(MASKED);
  });
});

describe('an inspector window that loads slowly', () => {
  it('still receives the root and every actor that started before it said "connected"', async () => {
    const posted: unknown[] = [];
    const inspectorWindow = { postMessage: (message: unknown) => posted.push(message) } as unknown as Window;
    const appWindow = new EventTarget() as Window & EventTarget;
    appWindow.open = () => inspectorWindow;
    const inspector = createBrowserInspector({ ...INSPECTOR_OPTIONS, window: appWindow });
    const child = setup({}).createMachine({ id: 'child' });
    const app = setup({ actors: { child } }).createMachine({ id: 'root', invoke: { src: 'child' }, on: { TICK: {} } });
    const root = createActor(app, { inspect: inspector.inspect }).start();
    // A user busy in the app while the inspector's page loads: hundreds of inspection events before it connects.
    for (let tick = 0; tick < 150; tick += 1) root.send({ type: 'TICK' });
    // The inspector takes each event when the browser is idle, in order: one more idle callback comes after them all.
    await new Promise((taken) => (window.requestIdleCallback ?? window.requestAnimationFrame)(taken));
    expect(posted).toEqual([]);

    appWindow.dispatchEvent(new MessageEvent('message', { data: { type: '@statelyai.connected' } }));
    type PostedActor = { type: string; name: string; sessionId: string; parentId?: string };
    const actors = (posted as PostedActor[]).filter((message) => message.type === '@xstate.actor');
    const rootActor = actors.find((actor) => actor.name === 'root' && actor.parentId === undefined);
    expect(rootActor).toBeDefined();
    expect(actors.some((actor) => actor.parentId === rootActor?.sessionId)).toBe(true);
  });
});

describe('when the inspector is used', () => {
  it('only with ?inspect in the address or VITE_INSPECT=1', () => {
    expect(inspectionRequested('?inspect', undefined)).toBe(true);
    expect(inspectionRequested('?tab=completed&inspect=1', undefined)).toBe(true);
    expect(inspectionRequested('', '1')).toBe(true);
    expect(inspectionRequested('?tab=completed', undefined)).toBe(false);
    expect(inspectionRequested('', '0')).toBe(false);
  });

  it('getInspect gives no observer, and opens nothing, when inspection was not asked for', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    await expect(getInspect()).resolves.toBeUndefined();
    expect(open).not.toHaveBeenCalled();
  });

  it('getInspect opens the Stately inspector once when the address asks for it', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    window.history.replaceState(null, '', '/dashboard?inspect');

    const observer = await getInspect();
    expect(observer?.next).toBeTypeOf('function');
    expect(await getInspect()).toBe(observer);
    expect(open).toHaveBeenCalledExactlyOnceWith('https://stately.ai/inspect', 'xstateinspector');
  });
});
