// The "Try it" console of a reference page (assets/console.js): a button beside every operation
// Redoc renders opens a dialog with the operation's parameters and JSON body pre-filled from the
// spec's examples, the server (a selector of the local mock, a hosted sandbox and the reader's
// mall, and the base URL itself) and the credentials (the demo partner for Basic; for OAuth a
// token field and "Get a demo token"). Send validates the input against the operation's schemas
// first (console-request.ts), then shows the answer's status, headers (rate-limit headers marked)
// and body. The buttons are in the page's markup (build/try-it-buttons.mjs), so they work before
// Redoc is live; an operation's data (`<api>/console/<operationId>.json`: the API's console data
// with that operation alone; `<api>/console.json` has them all) is fetched when its Try it is
// first pressed.
import type { ConsoleApi, ConsoleOperation, ConsoleParameter } from './console-model.js';
import { buildRequest, type ConsoleInput, inputProblems, isRateLimitHeader } from './console-request.js';
import { fetchDemoToken, storedToken, storeToken } from './demo-token.js';

type Child = Node | string;

/** Creates an element with attributes and children. */
function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** A short hint of what a parameter takes: its type, enum, bounds. */
function hintOf(parameter: ConsoleParameter): string {
  const schema = parameter.schema;
  const items = (schema.items ?? {}) as Record<string, unknown>;
  const parts = [
    `${parameter.in}${parameter.required ? ', required' : ''}`,
    schema.type === 'array' ? `comma list of ${String(items.type ?? 'values')}` : String(schema.type ?? ''),
  ];
  const choices = (schema.enum ?? items.enum) as unknown[] | undefined;
  if (choices) parts.push(`one of ${choices.join(', ')}`);
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    parts.push(`${String(schema.minimum ?? '…')}–${String(schema.maximum ?? '…')}`);
  return parts.filter(Boolean).join(' · ');
}

const baseKey = (api: string) => `mall-api-console:base:${api}`;
const oauthKey = 'mall-api-console:oauth-server';

/** Opens the console dialog for one operation. */
function openConsole(dialog: HTMLDialogElement, api: ConsoleApi, operation: ConsoleOperation, siteRoot: URL) {
  const id = (name: string) => `console-${operation.operationId}-${name}`;
  const base = element('input', {
    id: id('base'),
    type: 'url',
    value: sessionStorage.getItem(baseKey(api.api)) ?? api.baseUrl,
  });
  base.addEventListener('change', () => sessionStorage.setItem(baseKey(api.api), base.value));
  // The base-URL selector: a choice fills the field (and the OAuth server that goes with it).
  const target = element('select', { id: id('target') });
  for (const [index, server] of api.servers.entries()) {
    target.append(element('option', { value: String(index) }, server.label));
  }
  const chosen = api.servers.findIndex((server) => server.url === base.value);
  target.value = String(chosen >= 0 ? chosen : 1);
  let oauthServer: HTMLInputElement | undefined;
  target.addEventListener('change', () => {
    const server = api.servers[Number(target.value)];
    if (!server) return;
    base.value = server.url;
    base.placeholder = server.url ? '' : 'https://sandbox.example.com';
    base.dispatchEvent(new Event('change'));
    if (oauthServer && server.oauthUrl !== undefined) {
      oauthServer.value = server.oauthUrl;
      oauthServer.dispatchEvent(new Event('change'));
    }
  });

  const status = element('p', { class: 'console-status', role: 'status' });
  const auth = element('fieldset', {}, element('legend', {}, 'Authentication'));
  let authorization: () => string | undefined;
  if (api.auth.kind === 'basic') {
    const user = element('input', { id: id('user'), value: api.auth.username, autocomplete: 'off' });
    const password = element('input', { id: id('password'), value: api.auth.password, autocomplete: 'off' });
    auth.append(
      element('label', { for: id('user') }, 'Client ID'),
      user,
      element('label', { for: id('password') }, 'Client secret'),
      password,
    );
    authorization = () => `Basic ${btoa(`${user.value}:${password.value}`)}`;
  } else {
    const oauth = api.auth.oauth;
    const scope = operation.requiredScope ?? '';
    const server = element('input', {
      id: id('oauth'),
      type: 'url',
      value: sessionStorage.getItem(oauthKey) ?? oauth.serverUrl,
    });
    const token = element('input', {
      id: id('token'),
      type: 'password',
      autocomplete: 'off',
      value: storedToken(server.value, scope),
    });
    server.addEventListener('change', () => {
      sessionStorage.setItem(oauthKey, server.value);
      token.value = storedToken(server.value, scope);
    });
    token.addEventListener('change', () => storeToken(server.value, scope, token.value));
    oauthServer = server;
    const get = element('button', { type: 'button', class: 'console-token' }, 'Get a demo token');
    get.addEventListener('click', async () => {
      status.textContent = 'Asking the mock’s OAuth server…';
      try {
        token.value = await fetchDemoToken(oauth, server.value, scope, siteRoot);
        status.textContent = `Demo token for ${scope} kept in this tab only.`;
      } catch (error) {
        status.textContent = `No token: ${(error as Error).message}`;
      }
    });
    auth.append(
      element('label', { for: server.id }, 'OAuth server (the admin mock)'),
      server,
      element('label', { for: id('token') }, `Access token (scope `, element('code', {}, scope), ')'),
      token,
      get,
    );
    authorization = () => (token.value ? `Bearer ${token.value}` : undefined);
  }

  const fields = new Map<string, HTMLInputElement>();
  const parameters = element('fieldset', {}, element('legend', {}, 'Parameters'));
  for (const parameter of operation.parameters) {
    const input = element('input', {
      id: id(`p-${parameter.name}`),
      name: parameter.name,
      'aria-describedby': id(`h-${parameter.name}`),
      autocomplete: 'off',
      ...(parameter.example ? { placeholder: parameter.example } : {}),
    });
    if (parameter.required) input.value = parameter.example;
    fields.set(parameter.name, input);
    parameters.append(
      element(
        'div',
        { class: 'console-field' },
        element('label', { for: input.id }, element('code', {}, parameter.name)),
        input,
        element('small', { id: id(`h-${parameter.name}`) }, hintOf(parameter)),
      ),
    );
  }
  if (operation.parameters.length === 0) parameters.append(element('p', {}, 'No parameters.'));

  const body = element('textarea', { id: id('body'), rows: '10', spellcheck: 'false' });
  body.value = operation.body?.example ?? '';
  const problems = element('div', { class: 'console-problems' });
  const send = element('button', { type: 'submit', class: 'button' }, 'Send request');
  const sendAnyway = element(
    'button',
    { type: 'button', class: 'console-send-anyway', hidden: '' },
    'Send anyway',
  );
  const response = element('section', {
    class: 'console-response',
    'aria-label': 'Response',
    tabindex: '-1',
  });
  // The answer may land below the fold of a small screen: bring it into view and give it focus.
  const showResponse = (...children: Child[]) => {
    response.replaceChildren(...children);
    response.focus({ preventScroll: true });
    response.scrollIntoView({ block: 'start' });
  };

  const input = (): ConsoleInput => ({
    values: Object.fromEntries([...fields].map(([name, field]) => [name, field.value])),
    body: body.value,
  });
  const deliver = async () => {
    sendAnyway.hidden = true;
    problems.replaceChildren();
    const { url, init } = buildRequest(operation, input(), base.value, authorization());
    response.replaceChildren(element('p', {}, `${init.method} ${url} …`));
    const started = performance.now();
    try {
      const answer = await fetch(url, init);
      const text = await answer.text();
      const elapsed = Math.round(performance.now() - started);
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // not JSON: shown as it came
      }
      const rows = [...answer.headers].map(([name, value]) =>
        element(
          'tr',
          isRateLimitHeader(name) ? { class: 'rate-limit' } : {},
          element('th', { scope: 'row' }, element('code', {}, name)),
          element('td', {}, element('code', {}, value), isRateLimitHeader(name) ? ' (rate limit)' : ''),
        ),
      );
      showResponse(
        element(
          'p',
          { class: `console-http-status ${answer.ok ? 'ok' : 'bad'}` },
          `${answer.status} ${answer.statusText}`,
          element('span', {}, ` · ${elapsed} ms · ${init.method} ${url}`),
        ),
        element(
          'table',
          { class: 'console-headers' },
          element('caption', {}, 'Response headers'),
          element('tbody', {}, ...rows),
        ),
        element('pre', { tabindex: '0', class: 'console-body', 'aria-label': 'Response body' }, shown),
      );
    } catch (error) {
      showResponse(
        element(
          'p',
          { class: 'console-http-status bad' },
          `No answer: ${(error as Error).message}. Is the mock running at ${base.value}? (npm start)`,
        ),
      );
    }
  };

  const form = element('form', { class: 'console-form', novalidate: '' });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const found = inputProblems(operation, input());
    if (found.length === 0) return void deliver();
    problems.replaceChildren(
      element('p', {}, 'Not sent: the request does not match the spec.'),
      element(
        'ul',
        {},
        ...found.map((problem) =>
          element('li', {}, element('code', {}, problem.name), ` ${problem.message}`),
        ),
      ),
    );
    sendAnyway.hidden = false;
  });
  sendAnyway.addEventListener('click', () => void deliver());

  const close = element('button', { type: 'button', class: 'console-close' }, 'Close');
  close.addEventListener('click', () => dialog.close());
  form.append(
    element(
      'div',
      { class: 'console-head' },
      element(
        'h2',
        { id: 'console-title' },
        `Try it: ${operation.summary} `,
        element('code', {}, `${operation.method.toUpperCase()} ${operation.path}`),
      ),
      close,
    ),
    element(
      'div',
      { class: 'console-input' },
      element(
        'fieldset',
        {},
        element('legend', {}, 'Server'),
        element('label', { for: target.id }, 'Send to'),
        target,
        element('label', { for: base.id }, 'Base URL'),
        base,
      ),
      auth,
      status,
      parameters,
      ...(operation.body
        ? [
            element(
              'label',
              { for: body.id },
              `Request body (JSON${operation.body.required ? ', required' : ''})`,
            ),
            body,
          ]
        : []),
    ),
    element(
      'div',
      { class: 'console-output' },
      element('p', { class: 'console-actions' }, send, ' ', sendAnyway),
      problems,
      response,
    ),
  );
  dialog.replaceChildren(form);
  if (!dialog.open) dialog.showModal();
}

const script = document.currentScript as HTMLScriptElement | null;
const siteRoot = new URL('../', script?.src ?? document.baseURI);
const apiName = document.body.dataset.api;
if (apiName) {
  let dialog: HTMLDialogElement | undefined;
  // The console's data (schemas, examples) of an operation loads when its Try it is first
  // pressed, not with the page: the API's data with that operation alone, a few kB.
  const data = new Map<string, Promise<ConsoleApi>>();
  const open = (operationId: string) => {
    const loaded =
      data.get(operationId) ??
      fetch(new URL(`${apiName}/console/${encodeURIComponent(operationId)}.json`, siteRoot)).then(
        (response) => response.json() as Promise<ConsoleApi>,
      );
    data.set(operationId, loaded);
    void loaded.then((api) => {
      const operation = api.operations.find((entry) => entry.operationId === operationId);
      if (!operation) return;
      if (!dialog) {
        dialog = element('dialog', { class: 'console', 'aria-labelledby': 'console-title' });
        document.body.append(dialog);
      }
      openConsole(dialog, api, operation, siteRoot);
    });
  };
  // The buttons are in Redoc's markup (the docs build writes them into each operation's
  // description), prerendered with the page: one listener, in the capture phase, answers them from
  // the first paint on, whether or not Redoc is live yet; the click goes no further, as the button
  // is the console's alone.
  document.addEventListener(
    'click',
    (event) => {
      const button = (event.target as Element | null)?.closest?.('button.try-it[data-operation]');
      if (!(button instanceof HTMLButtonElement)) return;
      event.stopPropagation();
      open(button.dataset.operation ?? '');
    },
    true,
  );
}
