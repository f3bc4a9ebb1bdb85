// The reference's code-sample tabs before Redoc is live (part of assets/redoc-standin.js). Redoc
// renders only the selected tab's sample and starts only when one of its controls is first used
// (redoc-on-demand.ts), which on a slow phone is seconds of start-up: so a tap on a sample tab
// (TypeScript, curl, Python, PHP) is answered here at once — the tab is marked selected and the
// sample's code block shows that tab's code, highlighted by the docs build as Redoc highlights it
// (`<operationId>.json` in the folder `#redoc`'s `data-samples` names, fetched on the first tap on
// one of the operation's tabs: a few kB) — while Redoc starts. React checks neither
// attributes nor a code block's raw HTML when it hydrates, so the stand-in changes only those; once
// Redoc is live, it puts them back as Redoc rendered them and taps the tab shown, which Redoc then
// selects itself. Tabs of a response or of a request's payload are left to Redoc.

/** What the stand-in changed in one set of sample tabs, to put back once Redoc is live. */
interface Switched {
  /** The tabs and their attributes as prerendered. */
  tabs: { tab: HTMLElement; attributes: Record<string, string | null> }[];
  /** The code block of the prerendered (selected) tab, and its HTML. */
  code: HTMLElement;
  html: string;
  /** The panel around it, and the tab that labels it. */
  panel: HTMLElement;
  labelledBy: string | null;
  /** The tab the reader chose last: selected by Redoc once live. */
  chosen: HTMLElement;
}

/** The attributes of a tab that say whether it is selected. */
const tabAttributes = ['aria-selected', 'class', 'tabindex'] as const;
const selectedClass = 'react-tabs__tab--selected';

/** Operation id → its samples (tab label → highlighted code), each fetched once, when first needed. */
const samples = new Map<string, Promise<Record<string, string>>>();
const switched = new Map<Element, Switched>();

/**
 * Fetches the highlighted samples of `operation` from the folder `container` names, once (none if
 * it names none or the fetch fails).
 */
function samplesOf(container: HTMLElement, operation: string): Promise<Record<string, string>> {
  const folder = container.dataset.samples;
  const known =
    samples.get(operation) ??
    (folder
      ? fetch(new URL(`${folder}${encodeURIComponent(operation)}.json`, location.href))
          .then((response) => (response.ok ? (response.json() as Promise<Record<string, string>>) : {}))
          .catch(() => ({}))
      : Promise.resolve({}));
  samples.set(operation, known);
  return known;
}

/** Marks `chosen` the selected one of `state`'s tabs. */
function select(state: Switched, chosen: HTMLElement) {
  for (const { tab } of state.tabs) {
    const selected = tab === chosen;
    tab.setAttribute('aria-selected', String(selected));
    tab.classList.toggle(selectedClass, selected);
    if (selected) tab.setAttribute('tabindex', '0');
    else tab.removeAttribute('tabindex');
  }
  state.panel.setAttribute('aria-labelledby', chosen.id);
  state.chosen = chosen;
}

/** The stand-in's record of the sample tabs `tab` belongs to, made on first use; none for tabs it leaves to Redoc. */
function switchedOf(tab: HTMLElement): Switched | undefined {
  const list = tab.closest('[role="tablist"]');
  if (!list) return undefined;
  const known = switched.get(list);
  if (known) return known;
  const tabs = [...list.querySelectorAll<HTMLElement>(':scope > [role="tab"]')];
  const selected = tabs.find((entry) => entry.getAttribute('aria-selected') === 'true');
  const panel = selected && document.getElementById(selected.getAttribute('aria-controls') ?? '');
  // A code sample's panel is its code block (a payload's or a response's is not).
  const code = panel?.querySelector<HTMLElement>(':scope > div > pre');
  if (!selected || !panel || !code) return undefined;
  const state: Switched = {
    tabs: tabs.map((entry) => ({
      tab: entry,
      attributes: Object.fromEntries(tabAttributes.map((name) => [name, entry.getAttribute(name)])),
    })),
    code,
    html: code.innerHTML,
    panel,
    labelledBy: panel.getAttribute('aria-labelledby'),
    chosen: selected,
  };
  switched.set(list, state);
  return state;
}

/**
 * Answers a use of `target` if it is a code-sample tab of the reference in `container` and Redoc
 * has not started: shows the tab's sample (once the operation's samples are fetched). Resolves
 * once it has (or could not), if it answers; false if it does not.
 */
export function answerSampleTab(container: HTMLElement, target: Element): Promise<void> | false {
  if (container.dataset.redocStarted !== undefined) return false;
  const tab = target.closest<HTMLElement>('[id^="operation/"] [role="tab"]');
  const operation = tab?.closest('[id^="operation/"]')?.id.replace(/^operation\//, '');
  const state = tab && switchedOf(tab);
  if (!tab || !operation || !state) return false;
  state.chosen = tab;
  return samplesOf(container, operation).then((tabs) => {
    // A later tap, or Redoc live, has had the last word.
    if (state.chosen !== tab || container.dataset.redocStarted !== undefined) return;
    const html =
      tab === state.tabs.find(({ attributes }) => attributes['aria-selected'] === 'true')?.tab
        ? state.html
        : tabs[tab.textContent?.trim() ?? ''];
    if (html === undefined) return;
    state.code.innerHTML = html;
    select(state, tab);
  });
}

/**
 * Once Redoc is live (the `redoc-ready` event, heard in the capture phase), puts the tabs the
 * stand-in switched back as Redoc rendered them and taps the tab the reader chose, for Redoc.
 */
export function handOverSampleTabs(): void {
  for (const state of switched.values()) {
    for (const { tab, attributes } of state.tabs)
      for (const [name, value] of Object.entries(attributes))
        if (value === null) tab.removeAttribute(name);
        else tab.setAttribute(name, value);
    state.code.innerHTML = state.html;
    if (state.labelledBy === null) state.panel.removeAttribute('aria-labelledby');
    else state.panel.setAttribute('aria-labelledby', state.labelledBy);
    if (state.chosen.getAttribute('aria-selected') !== 'true') state.chosen.click();
  }
  switched.clear();
}
