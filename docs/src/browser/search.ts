// The site search: a dialog opened from the header's button, with `/` or Ctrl-K (⌘K), that
// queries the MiniSearch index built with the site (guides, references, changelogs; see
// build/search-index.mjs) and lists links to what matched (guides first for their topics), counts
// every match, and works from the keyboard (arrows, Enter, Escape). Everything runs in the page
// from files under docs/dist; nothing is sent anywhere.
import MiniSearch from 'minisearch';
import { type SearchResultFields, searchOptions } from '../search-options.mjs';

/** How many results the list shows; the status counts them all. */
const shownResults = 20;

/**
 * The results of `query`: how many matched, and links to the first {@link shownResults} as list
 * items. Guide sections weigh three times an operation's, so a topic's guide comes first.
 */
function searchResults(
  index: MiniSearch,
  query: string,
  root: URL,
): { total: number; items: HTMLLIElement[] } {
  const results = index.search(query, {
    prefix: true,
    fuzzy: 0.2,
    combineWith: 'AND',
    boost: { title: 3, names: 2 },
    boostDocument: (_id, _term, stored) => (String(stored?.section ?? '').startsWith('Guide') ? 3 : 1),
  });
  const items = results.slice(0, shownResults).map((result, position) => {
    const fields = result as unknown as SearchResultFields;
    const item = document.createElement('li');
    item.id = `search-result-${position}`;
    item.setAttribute('role', 'option');
    const link = document.createElement('a');
    link.href = new URL(fields.url, root).href;
    link.tabIndex = -1;
    link.textContent = fields.title;
    const where = document.createElement('span');
    where.className = 'search-where';
    where.textContent = fields.section;
    item.append(link, where);
    return item;
  });
  return { total: results.length, items };
}

/** The status line of `total` results of which `shown` are listed. */
const countText = (total: number, shown: number) =>
  `${total} result${total === 1 ? '' : 's'}${total > shown ? `, the first ${shown} shown` : ''}`;

/** Whether a key press should open the search rather than type into a field. */
const opensSearch = (event: KeyboardEvent) => {
  const target = event.target as HTMLElement | null;
  const typing = target?.closest('input, textarea, select, [contenteditable="true"]') !== null;
  return (
    (event.key === '/' && !typing) || (event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey))
  );
};

/**
 * Wires the search dialog. `root` is the site's root URL, where `search-index.json` lives.
 */
export function setUpSearch(button: HTMLButtonElement, dialog: HTMLDialogElement, root: URL): void {
  const input = dialog.querySelector('input') as HTMLInputElement;
  const list = dialog.querySelector('ol') as HTMLOListElement;
  const status = dialog.querySelector('[role="status"]') as HTMLElement;
  let index: Promise<MiniSearch> | undefined;
  const loadIndex = () => {
    index ??= fetch(new URL('search-index.json', root))
      .then((response) => response.text())
      .then((json) => MiniSearch.loadJSON(json, searchOptions));
    return index;
  };
  const open = () => {
    if (!dialog.open) dialog.showModal();
    input.select();
    void loadIndex();
  };
  button.addEventListener('click', open);
  document.addEventListener('keydown', (event) => {
    if (!opensSearch(event) || dialog.open) return;
    event.preventDefault();
    open();
  });
  dialog.querySelector('.search-close')?.addEventListener('click', () => dialog.close());
  // The field drives the list as a combobox: arrows move the highlighted result, Enter follows it
  // (the first when none is highlighted), Escape closes the dialog at once (a search field would
  // first clear itself).
  list.id ||= 'search-results';
  list.setAttribute('role', 'listbox');
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('aria-expanded', 'false');
  let active = -1;
  /** Highlights the result at `position` (none when negative). */
  const highlight = (position: number) => {
    const items = [...list.children] as HTMLLIElement[];
    active = position < 0 || items.length === 0 ? -1 : position % items.length;
    for (const [index, item] of items.entries()) item.setAttribute('aria-selected', String(index === active));
    const current = items[active];
    if (current) {
      input.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      dialog.close();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const count = list.children.length;
      if (event.key === 'ArrowDown') highlight(active + 1);
      else highlight(active <= 0 ? count - 1 : active - 1);
    } else if (event.key === 'Enter') {
      const link = list.children[Math.max(active, 0)]?.querySelector('a');
      if (!link) return;
      event.preventDefault();
      dialog.close();
      window.location.assign(link.href);
    }
  });
  input.addEventListener('input', async () => {
    const query = input.value.trim();
    const found = query.length < 2 ? { total: 0, items: [] } : searchResults(await loadIndex(), query, root);
    if (input.value.trim() !== query) return; // a newer query is on its way
    list.replaceChildren(...found.items);
    input.setAttribute('aria-expanded', String(found.items.length > 0));
    highlight(-1);
    status.textContent = query.length < 2 ? '' : countText(found.total, found.items.length);
  });
  // Following a result on the page already open (a reference anchor) closes the dialog.
  list.addEventListener('click', (event) => {
    if ((event.target as HTMLElement).closest('a')) dialog.close();
  });
}
