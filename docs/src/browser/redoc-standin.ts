// The reference page's stand-in for Redoc until it is live (assets/redoc-standin.js): small and
// loaded at once (asynchronously, so it may run while the page is still arriving), it answers the
// prerendered menu and anchors (redoc-menu.ts) and starts Redoc when the reader first needs one of
// its controls (redoc-on-demand.ts), or, once the page is parsed, at once if the page came without
// Redoc's markup (`--no-prerender`); a code-sample tab tapped before Redoc is live shows its sample
// at once (redoc-tabs.ts, the operation's samples fetched on that tap); the sections of the
// reference the page's HTML left out are put in once it has loaded (redoc-rest.ts). The Try it buttons are the
// console's (console.ts), live from the first paint too.
import { keepAnchorsBelowHeader, setUpMenuStandIn } from './redoc-menu.js';
import { setUpRedocOnDemand } from './redoc-on-demand.js';
import { fillWhenIdle } from './redoc-rest.js';

setUpMenuStandIn();
const startRedoc = setUpRedocOnDemand();
const parsed = () => {
  const container = document.getElementById('redoc');
  if (!container) return;
  if (container.firstElementChild) {
    keepAnchorsBelowHeader(container);
    // The sections the HTML left out, fetched once the page is in, not before, and put in while
    // the page is idle.
    const loaded = () => void fillWhenIdle(container);
    if (document.readyState === 'complete') loaded();
    else addEventListener('load', loaded, { once: true });
  } else startRedoc();
};
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', parsed, { once: true });
else parsed();
