// The one HTTP call the hooks make on their own (outside Dredd's transactions): spending a rate
// budget, fetching an OAuth code, creating sandbox fixtures. CommonJS, like the hooks.
const { request: httpRequest } = require('node:http');
const { request: httpsRequest } = require('node:https');

/**
 * Sends one request and reads the whole answer.
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: string }} [options]
 * @returns {Promise<{ statusCode: number, headers: import('node:http').IncomingHttpHeaders, text: string }>}
 */
function sendRequest(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((done, fail) => {
    const target = new URL(url);
    const call = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
      target,
      { method, headers },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          done({
            statusCode: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    call.on('error', fail);
    call.end(body);
  });
}

module.exports = { sendRequest };
