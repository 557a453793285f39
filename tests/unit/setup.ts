import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom lays nothing out and has no Element.scrollTo; React Aria's collections (the kit's Select, ListBox, Menu)
// scroll their focused item into view in an animation frame, which then threw after the test that opened one
// (an unhandled error that fails the run, seen in the admin collections' model test).
Element.prototype.scrollTo ??= () => {};
// Nor does it scroll the window (its own window.scrollTo only reports "not implemented"): the Request screen keeps
// the newest message in view by scrolling the window.
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
});
