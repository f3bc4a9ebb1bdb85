// Starts Redoc when the reader first needs it (part of assets/redoc-standin.js). The reference
// arrives prerendered: its text, the menu (redoc-menu.ts), anchors and Try it (console.ts) work
// without Redoc. Redoc's own controls — the sample and response tabs, the expanders, its search
// field, the copy buttons — need Redoc live, and starting it (evaluating its large script and
// building its store from the spec) is seconds of one long task on a slow phone, during which no
// tap is answered. So it starts on the first use of one of those controls, not when the page
// loads, and the first taps of a reader who reads, follows the menu or tries a request are never
// kept waiting by it. The tap that started it is repeated once Redoc is live (taps made after
// React has taken the page over are React's to answer); text typed into Redoc's search field
// meanwhile is handed to it. Redoc hydrates the whole reference, so the sections the page's HTML
// left out are put in first (redoc-rest.ts). A code-sample tab is the exception: the stand-in shows its sample at
// once (redoc-tabs.ts) while Redoc starts, and hands the tab over to Redoc once live. A page built
// without prerendering (`--no-prerender`) starts Redoc at once (redoc-standin.ts), as it has
// nothing to show without it.
//
// The page names what to start in `#redoc`: `data-script` (assets/redoc.js), `data-spec` (the
// spec Redoc reads) and the options in `<script type="application/json" id="redoc-options">`.
// Redoc sets `data-redoc-started` when React listens to the page and `data-redoc-ready` (with a
// `redoc-ready` event) when it is live (see redoc-reference.mjs).
import { fillWhole } from './redoc-rest.js';
import { answerSampleTab, handOverSampleTabs } from './redoc-tabs.js';

/** Whether Redoc is live in `container` and answers its controls itself. */
export const isRedocLive = (container: HTMLElement): boolean => container.dataset.redocReady !== undefined;

/** Redoc's controls that a tap, or Enter or Space, uses. The Try it buttons are the console's. */
const controls = 'button:not(.try-it), [role="tab"], [role="button"], input, select, textarea';

/** What the page hands Redoc (`window.Redoc`, defined by assets/redoc.js). */
interface RedocGlobal {
  show(specUrl: string, options: object, element: HTMLElement): Promise<void>;
}

/**
 * Hands the value typed into `field` before Redoc was live to Redoc's handler: React listens for
 * input events and tracks the value it last saw, so the value is set through React's tracker
 * first (to empty), then back through the element's own setter, and an input event is sent.
 */
function handOverTyping(field: HTMLInputElement | HTMLTextAreaElement) {
  const typed = field.value;
  if (!typed) return;
  field.value = '';
  const prototype =
    field instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, typed);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Wires the start of Redoc on demand for the reference (`#redoc`): the listeners are on the
 * document from the start and find the reference when an event comes. Resolves to a function that
 * starts Redoc at once, for a page built without prerendering; call it once the page is parsed.
 */
export function setUpRedocOnDemand(): () => void {
  let started = false;
  /** The control used before React listened, repeated once Redoc is live. */
  let pending: HTMLElement | undefined;

  const start = () => {
    const container = document.getElementById('redoc');
    if (started || !container) return;
    started = true;
    // Redoc scrolls to the section the address names when it starts: the reader has read on
    // since, so Redoc starts with none named, and the address gets its section back once Redoc
    // is live (unless Redoc named the section in view by then, as it does while one scrolls).
    const hash = location.hash;
    if (hash && container.firstElementChild)
      history.replaceState(null, '', `${location.pathname}${location.search}`);
    container.addEventListener(
      'redoc-ready',
      () => {
        if (hash && !location.hash) history.replaceState(null, '', hash);
        handOverSampleTabs();
        const control = pending;
        pending = undefined;
        if (!control?.isConnected) return;
        if (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement)
          handOverTyping(control);
        else control.click();
      },
      { once: true },
    );
    const options = JSON.parse(document.getElementById('redoc-options')?.textContent ?? '{}') as object;
    const script = document.createElement('script');
    script.src = container.dataset.script ?? '';
    // Redoc hydrates the whole reference: the sections not in the page yet are put there first.
    const whole = fillWhole(container);
    script.onload = () =>
      void whole.then(() =>
        (window as unknown as { Redoc: RedocGlobal }).Redoc.show(
          container.dataset.spec ?? '',
          options,
          container,
        ),
      );
    document.body.append(script);
  };

  /** Starts Redoc for a use of `target`, if it is one of Redoc's controls and Redoc is not live. */
  const use = (target: EventTarget | null, repeat: boolean) => {
    const container = document.getElementById('redoc');
    if (!container || isRedocLive(container) || !(target instanceof Element) || !container.contains(target))
      return;
    const control = target.closest<HTMLElement>(controls);
    if (!control || !container.contains(control)) return;
    // A code-sample tab is answered by the stand-in at once, and handed over to Redoc by it; Redoc
    // starts once the tab shows its sample, so that its script does not hold up the sample's fetch.
    const answered = answerSampleTab(container, control);
    if (repeat && !answered && container.dataset.redocStarted === undefined) pending = control;
    if (answered) void answered.then(start);
    else start();
  };

  document.addEventListener('click', (event) => use(event.target, true), true);
  document.addEventListener(
    'keydown',
    (event) => {
      if (event.key === 'Enter' || event.key === ' ')
        use(event.target, !(event.target instanceof HTMLButtonElement));
    },
    true,
  );
  // Focus on a field (Redoc's search) starts Redoc too: what is typed is handed over when live.
  document.addEventListener(
    'focusin',
    (event) => {
      const field = event.target;
      if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) use(field, true);
    },
    true,
  );
  return start;
}
