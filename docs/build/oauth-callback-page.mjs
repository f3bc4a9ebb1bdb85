// @ts-check
// The site's OAuth 2.0 redirect page (docs/dist/oauth/callback.html): where an authorization
// server sends the reference console's sign-in window back with `?code=…&state=…` (or `?error=…`).
// It hands that query to the page that opened it (same origin only, by postMessage) and closes;
// the console checks the state and exchanges the code (src/browser/demo-token.ts). A plain file,
// so the flow works from any static host.
import { siteHead } from './page-shell.mjs';

/** The redirect page's HTML; it lives one folder below the site root. */
export function renderOAuthCallbackPage() {
  return `<!doctype html>
<html lang="en">
<head>
${siteHead({ title: 'Signing in · mall-api', depth: 1 })}
</head>
<body>
<main class="content">
<h1>Signing in</h1>
<p id="callback-status">Handing the answer back to the console…</p>
</main>
<script>
(function () {
  var status = document.getElementById('callback-status');
  if (window.opener && window.opener !== window) {
    window.opener.postMessage({ source: 'mall-api-oauth', query: window.location.search }, window.location.origin);
    window.close();
    status.textContent = 'Done: you can close this window.';
  } else {
    status.textContent = 'This page finishes a sign-in started from a reference\\u2019s \\u201cGet a demo token\\u201d; open it from there.';
  }
})();
</script>
</body>
</html>
`;
}
