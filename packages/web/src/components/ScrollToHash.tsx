import { useEffect } from 'react';
import { useLocation } from 'react-router';

const FIND_TRIES = 50;
const FIND_EVERY_MS = 100;
// Sections above the anchor (settings, highlighted samples) may still grow after it renders.
const SETTLE_MS = 3000;
const USER_INPUT = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;

/**
 * Scrolls to `#anchor` on load and on navigation, else to the top. It waits for the section to render,
 * then keeps it in view while the page above it settles, until the reader scrolls on their own.
 */
export function ScrollToHash() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (!hash) {
      window.scrollTo(0, 0);
      return;
    }
    const id = decodeURIComponent(hash.slice(1));
    let tries = 0;
    let observer: ResizeObserver | undefined;
    let settle: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      clearInterval(finder);
      clearTimeout(settle);
      observer?.disconnect();
      for (const type of USER_INPUT) window.removeEventListener(type, stop);
    };
    const finder = setInterval(() => {
      const el = document.getElementById(id);
      if (!el) {
        if (++tries > FIND_TRIES) stop();
        return;
      }
      clearInterval(finder);
      el.scrollIntoView();
      observer = new ResizeObserver(() => el.scrollIntoView());
      observer.observe(document.body);
      settle = setTimeout(stop, SETTLE_MS);
    }, FIND_EVERY_MS);
    for (const type of USER_INPUT) window.addEventListener(type, stop, { passive: true });
    return stop;
  }, [pathname, hash]);
  return null;
}
