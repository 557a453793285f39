import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyNativeWrapperStatusBar } from '../../src/services/nativeWrapper.ts';

const BROWSER_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const WRAPPER_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 LifeConciergeApp/2.3.0';

const metaContent = (name: string) => document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;

let postMessage: ReturnType<typeof vi.fn<(message: string) => void>>;
beforeEach(() => {
  document.head.innerHTML = '<meta name="theme-color" content="#1d4ed8">';
  postMessage = vi.fn<(message: string) => void>();
  window.ReactNativeWebView = { postMessage };
});
afterEach(() => {
  delete window.ReactNativeWebView;
  document.head.innerHTML = '';
});

describe('applyNativeWrapperStatusBar (SPEC §1 native wrapper)', () => {
  it('leaves an ordinary browser alone', () => {
    expect(applyNativeWrapperStatusBar(BROWSER_UA)).toBe(false);
    expect(metaContent('theme-color')).toBe('#1d4ed8');
    expect(metaContent('apple-mobile-web-app-status-bar-style')).toBeUndefined();
    expect(postMessage).not.toHaveBeenCalled();
  });

  it('sets a light status bar with white colour inside the wrapper', () => {
    expect(applyNativeWrapperStatusBar(WRAPPER_UA)).toBe(true);
    expect(metaContent('theme-color')).toBe('#ffffff');
    expect(document.head.querySelectorAll('meta[name="theme-color"]')).toHaveLength(1);
    expect(metaContent('apple-mobile-web-app-status-bar-style')).toBe('default');
    expect(postMessage).toHaveBeenCalledExactlyOnceWith(
      JSON.stringify({ type: 'statusBar', style: 'light', color: '#ffffff' }),
    );
  });

  it('works in a wrapper without a React Native bridge', () => {
    delete window.ReactNativeWebView;
    expect(applyNativeWrapperStatusBar(WRAPPER_UA)).toBe(true);
    expect(metaContent('theme-color')).toBe('#ffffff');
  });
});
