/**
 * SPEC §1: the app can run inside a native wrapper (a WebView shell). The wrapper announces itself by adding this
 * token to the user agent, e.g. "Mozilla/5.0 (iPhone; ...) Mobile/15E148 LifeConciergeApp/2.3.0".
 */
export const NATIVE_WRAPPER_MARKER = 'LifeConciergeApp';

/** SPEC §1: light status bar style, white colour. */
export const NATIVE_STATUS_BAR = { type: 'statusBar', style: 'light', color: '#ffffff' } as const;

/** The bridge a React Native WebView injects; other wrappers read the meta tags instead. */
interface NativeBridge {
  postMessage(message: string): void;
}
declare global {
  interface Window {
    ReactNativeWebView?: NativeBridge;
  }
}

export function isNativeWrapper(userAgent: string): boolean {
  return userAgent.includes(NATIVE_WRAPPER_MARKER);
}

function setMeta(name: string, content: string) {
  let meta = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = name;
    document.head.append(meta);
  }
  meta.content = content;
}

/**
 * Inside the native wrapper: a white status bar with dark content. The theme colour and the iOS status bar style
 * ('default' is the light, white bar) are set for wrappers that honour them, and the setting is posted to a React
 * Native bridge when there is one. Returns whether the wrapper was detected. Call once at start-up.
 */
export function applyNativeWrapperStatusBar(userAgent: string = navigator.userAgent): boolean {
  if (!isNativeWrapper(userAgent)) return false;
  setMeta('theme-color', NATIVE_STATUS_BAR.color);
  setMeta('apple-mobile-web-app-status-bar-style', 'default');
  window.ReactNativeWebView?.postMessage(JSON.stringify(NATIVE_STATUS_BAR));
  return true;
}
