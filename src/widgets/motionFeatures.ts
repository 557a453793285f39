import { domMin } from 'framer-motion';

/**
 * framer-motion's animation features, in a chunk of their own: a LazyMotion fetches them when it is first rendered, so
 * that no page pays for them before it shows a drawer. Animations only (domMin): the kit's gestures are React Aria's,
 * so domAnimation's hover, tap and focus features would be dead weight.
 */
export default domMin;
