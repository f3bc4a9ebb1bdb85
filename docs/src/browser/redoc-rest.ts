// The rest of a prerendered reference (part of assets/redoc-standin.js). The page's HTML carries
// Redoc's markup with only the first sections of its content, so that a phone parses and lays out
// little before it answers the reader; the other sections, each the exact markup Redoc rendered,
// are in the file `#redoc` names in `data-rest` (`rest.html`, each after a `<!--section-->` line,
// see build/reference-split.mjs). This fetches the file once the page has loaded, decodes it in
// slices (one task each), and puts the sections back in order: one at a time while the page is
// idle, so the reader's taps are answered in between; up to a section at once when the reader asks
// for one that is not in yet (a deep link, a menu entry, an anchor link); and wholly, one per
// task, before Redoc hydrates (redoc-on-demand.ts), so that Redoc finds the markup it rendered.
// When every section is in, `#redoc` gets `data-reference-complete` and a `reference-complete`
// event.

/** What precedes each section in rest.html (build/reference-split.mjs). */
const sectionMark = '<!--section-->\n';

/** The sections not in the page yet, in order, once fetched. */
let queue: Promise<string[]> | undefined;

/** Lets the page answer what is waiting (a tap) before going on. */
const yieldToPage = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The bytes decoded per task: decoding 1.4 MB at once is a long task on a slow phone. */
const slice = 64 * 1024;

/**
 * Reads `response`'s text in slices, one task each, between which the page answers taps.
 */
async function textOf(response: Response): Promise<string> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const decoder = new TextDecoder();
  let text = '';
  for (let at = 0; at < bytes.length; at += slice) {
    text += decoder.decode(bytes.subarray(at, at + slice), { stream: at + slice < bytes.length });
    await yieldToPage();
  }
  return text;
}

/** The list of the sections still to put in the page (fetched once). */
function sectionsOf(container: HTMLElement): Promise<string[]> {
  queue ??= fetch(new URL(container.dataset.rest ?? '', location.href))
    .then(textOf)
    .then((text) => text.split(sectionMark).slice(1));
  return queue;
}

/** Whether every section of the reference is in the page. */
export const isComplete = (container: HTMLElement): boolean =>
  container.dataset.rest === undefined || container.dataset.referenceComplete !== undefined;

/** Puts the next section in the page; false when there was none left. */
function insertNext(container: HTMLElement, sections: string[]): boolean {
  const section = sections.shift();
  if (section !== undefined)
    container.querySelector('.api-content')?.insertAdjacentHTML('beforeend', section);
  if (sections.length === 0 && container.dataset.referenceComplete === undefined) {
    container.dataset.referenceComplete = '';
    container.dispatchEvent(new Event('reference-complete'));
  }
  return section !== undefined;
}

/**
 * Puts the sections in the page, in order, until the element with id `id` is in it (every section
 * when `id` is not given or names none). Resolves once done.
 */
export async function fillUpTo(container: HTMLElement, id?: string): Promise<void> {
  if (isComplete(container) || (id && document.getElementById(id))) return;
  const sections = await sectionsOf(container);
  while (!(id && document.getElementById(id)) && insertNext(container, sections));
}

/** Runs `task` when the page is idle (soon, where the browser cannot say when it is). */
const whenIdle = (task: () => void) =>
  'requestIdleCallback' in window ? requestIdleCallback(task, { timeout: 2000 }) : setTimeout(task, 1);

/** Whether the sections go in one per task from now on rather than when the page is idle. */
let hurried = false;
/** Whether a section is due to go in (a next step is scheduled). */
let stepping = false;

/** Puts the sections in the page one per task, when idle unless hurried, until all are in. */
async function fillInSteps(container: HTMLElement): Promise<void> {
  if (isComplete(container) || stepping) return;
  stepping = true;
  const sections = await sectionsOf(container);
  const next = () => (hurried ? setTimeout(step, 0) : whenIdle(step));
  const step = () => {
    if (insertNext(container, sections)) next();
    else stepping = false;
  };
  next();
}

/** Puts the sections in the page one at a time while the page is idle. Call once it has loaded. */
export const fillWhenIdle = (container: HTMLElement): Promise<void> => fillInSteps(container);

/**
 * Puts every section in the page, one per task (so the page answers taps in between), without
 * waiting for the page to be idle; resolves once all are in.
 */
export function fillWhole(container: HTMLElement): Promise<void> {
  if (isComplete(container)) return Promise.resolve();
  hurried = true;
  const whole = new Promise<void>((resolve) =>
    container.addEventListener('reference-complete', () => resolve(), { once: true }),
  );
  void fillInSteps(container);
  return whole;
}

/**
 * Scrolls to the element `id` names once it is in the page (putting the sections up to it there
 * first); resolves to the element, if the reference has one so named.
 */
export async function revealSection(container: HTMLElement, id: string): Promise<HTMLElement | null> {
  await fillUpTo(container, id);
  const target = document.getElementById(id);
  if (target && container.contains(target)) target.scrollIntoView();
  return target;
}
