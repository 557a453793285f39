import { domAnimation } from 'framer-motion';

/**
 * framer-motion's animation features, in a chunk of their own: a LazyMotion fetches them when it is first rendered, so
 * that the code that renders a drawer stays small and no page pays for them before it shows one.
 */
export default domAnimation;
