import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Scrolls to `#anchor` on load and on navigation (waiting for the section to render), else to the top. */
export function ScrollToHash() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (!hash) {
      window.scrollTo(0, 0);
      return;
    }
    const id = decodeURIComponent(hash.slice(1));
    let tries = 0;
    const timer = setInterval(() => {
      const el = document.getElementById(id);
      if (el || ++tries > 50) clearInterval(timer);
      el?.scrollIntoView();
    }, 100);
    return () => clearInterval(timer);
  }, [pathname, hash]);
  return null;
}
