// The site search: a dialog opened from the header's button, with `/` or Ctrl-K (⌘K), that
// queries the MiniSearch index built with the site (guides, references, changelogs; see
// build/search-index.mjs) and lists links to what matched. Everything runs in the page from
// files under docs/dist; nothing is sent anywhere.
import MiniSearch from 'minisearch';
import { type SearchResultFields, searchOptions } from '../search-options.mjs';

/** Links to the results of `query` (at most `limit`), as list items. */
function resultItems(index: MiniSearch, query: string, root: URL, limit = 20): HTMLLIElement[] {
  const results = index.search(query, {
    prefix: true,
    fuzzy: 0.2,
    combineWith: 'AND',
    boost: { title: 3, names: 2 },
  });
  return results.slice(0, limit).map((result) => {
    const fields = result as unknown as SearchResultFields;
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = new URL(fields.url, root).href;
    link.textContent = fields.title;
    const where = document.createElement('span');
    where.className = 'search-where';
    where.textContent = fields.section;
    item.append(link, where);
    return item;
  });
}

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
  // Escape closes the dialog at once (a search field would first clear itself).
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    dialog.close();
  });
  input.addEventListener('input', async () => {
    const query = input.value.trim();
    const items = query.length < 2 ? [] : resultItems(await loadIndex(), query, root);
    if (input.value.trim() !== query) return; // a newer query is on its way
    list.replaceChildren(...items);
    status.textContent = query.length < 2 ? '' : `${items.length} result${items.length === 1 ? '' : 's'}`;
  });
  // Following a result on the page already open (a reference anchor) closes the dialog.
  list.addEventListener('click', (event) => {
    if ((event.target as HTMLElement).closest('a')) dialog.close();
  });
}
