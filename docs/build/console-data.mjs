// @ts-check
// Writes what the reference's "Try it" console knows of an API (`<api>/console.json`, typed by
// src/browser/console-model.ts), from the spec model: the servers to pick from (the local mock,
// a hosted sandbox, the reader's mall from the spec's production server), the demo
// credentials (Basic) or the local OAuth server (the mock that serves the flow's token endpoint),
// and per operation its parameters and JSON body with dereferenced schemas — the very schemas the
// page validates the input against — and the spec's examples to pre-fill the fields with.

import { demoCollectionClients, demoOAuthClient, docsRedirectPath } from '@mall-api/mock-server';
import { parameterExplodes, parameterStyle } from '@mall-api/spec-model';
import { mockUrlOf, oauthEndpoints, productionUrlOf } from './code-samples.mjs';
import { parameterExample, requestBodyExample, typedValue } from './spec-examples.mjs';

/** @typedef {import('@mall-api/spec-model').SpecModel} SpecModel */
/** @typedef {import('../src/browser/console-model.js').ConsoleApi} ConsoleApi */
/** @typedef {import('../src/browser/console-model.js').ConsoleOperation} ConsoleOperation */
/** @typedef {import('../src/browser/console-model.js').Schema} Schema */

/** @param {unknown} value as the console's text field shows it */
const fieldText = (value) =>
  value === undefined ? '' : Array.isArray(value) ? value.join(',') : String(value);

/**
 * The console's view of one operation.
 * @param {SpecModel} model
 * @param {import('@mall-api/spec-model').OperationEntry} operation
 * @returns {ConsoleOperation}
 */
function consoleOperation(model, operation) {
  const body = requestBodyExample(model, operation);
  return {
    operationId: operation.operationId,
    method: operation.method,
    path: operation.pathTemplate,
    summary: String(operation.definition.summary ?? operation.operationId),
    ...(operation.requiredScope ? { requiredScope: operation.requiredScope } : {}),
    parameters: operation.parameters
      .filter((parameter) => parameter.in !== 'cookie')
      .map((parameter) => {
        /** @type {unknown} */
        let example;
        try {
          example = typedValue(model, parameter, parameterExample(model, parameter));
        } catch {
          example = undefined; // an optional parameter without example: an empty field
        }
        return {
          name: parameter.name,
          in: /** @type {'path' | 'query' | 'header'} */ (parameter.in),
          style: parameterStyle(parameter),
          explode: parameterExplodes(parameter),
          required: parameter.required,
          description: String(parameter.definition.description ?? ''),
          schema: /** @type {Schema} */ (model.dereference(parameter.schema)),
          example: fieldText(example),
        };
      }),
    ...(operation.bodySchema
      ? {
          body: {
            required: operation.bodyRequired,
            schema: /** @type {Schema} */ (model.dereference(operation.bodySchema)),
            example: body ? JSON.stringify(body.value, null, 2) : '',
          },
        }
      : {}),
  };
}

/**
 * The console data of the API named `api`. `models` are every API's models: the local OAuth
 * server is the mock of the API whose operations include the flow's token endpoint.
 * @param {string} api
 * @param {string} title
 * @param {SpecModel} model
 * @param {SpecModel[]} models
 * @returns {ConsoleApi}
 */
export function consoleApiOf(api, title, model, models) {
  const flow = oauthEndpoints(model);
  /** @type {ConsoleApi['auth']} */
  let auth;
  /** @type {string | undefined} */
  let oauthProduction;
  if (flow) {
    const server = models.find((candidate) =>
      candidate.operations.some((operation) => operation.pathTemplate === flow.token),
    );
    if (!server) throw new Error(`${api}: no API serves the token endpoint ${flow.token}`);
    const oauthBase = mockUrlOf(server.document);
    oauthProduction = productionUrlOf(server.document);
    auth = {
      kind: 'bearer',
      oauth: {
        serverUrl: oauthBase,
        authorizePath: flow.authorize,
        tokenPath: flow.token,
        clientId: demoOAuthClient.clientId,
        clientSecret: demoOAuthClient.clientSecret,
        redirectPage: docsRedirectPath.slice(1),
      },
    };
  } else {
    const [demo] = demoCollectionClients;
    auth = { kind: 'basic', username: demo.clientId, password: demo.clientSecret };
  }
  return {
    api,
    title,
    baseUrl: mockUrlOf(model.document),
    servers: [
      {
        label: 'Local mock (npm start)',
        url: mockUrlOf(model.document),
        ...(auth.kind === 'bearer' ? { oauthUrl: auth.oauth.serverUrl } : {}),
      },
      { label: 'Hosted sandbox (a mock you run elsewhere)', url: '' },
      {
        label: 'Your mall',
        url: productionUrlOf(model.document),
        ...(oauthProduction ? { oauthUrl: oauthProduction } : {}),
      },
    ],
    auth,
    operations: model.operations
      .filter(
        (operation) =>
          !flow || (operation.pathTemplate !== flow.authorize && operation.pathTemplate !== flow.token),
      )
      .map((operation) => consoleOperation(model, operation)),
  };
}
