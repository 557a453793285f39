/**
 * Lets the kit's links and buttons with an href navigate through the app's router (client-side) instead of loading
 * the page: the shell wraps the app in it once.
 */
export { RouterProvider } from 'react-aria-components';
