// What the console knows of an API, written by the docs build into `<api>/console.json` (and, one
// operation each, `<api>/console/<operationId>.json`; see build/console-data.mjs) from the spec
// model: the local mock's address, how to authenticate, and per operation its parameters and JSON body with their dereferenced schemas and the spec's
// examples. Types only; shared by the build and the page.

/** A JSON Schema taken from the spec, every `$ref` replaced. */
export type Schema = { [key: string]: unknown };

/** One parameter of an operation. */
export interface ConsoleParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  /** Its serialization style and explode, as the spec declares them or OpenAPI defaults them. */
  style: string;
  explode: boolean;
  required: boolean;
  description: string;
  schema: Schema;
  /** The spec's example, written as the console's field shows it (comma lists for arrays). */
  example: string;
}

/** One operation of the reference. */
export interface ConsoleOperation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  /** The OAuth scope it needs (bearer APIs). */
  requiredScope?: string;
  parameters: ConsoleParameter[];
  /** The JSON request body, if the operation takes one. */
  body?: { required: boolean; schema: Schema; example: string };
}

/** How the console obtains a demo token from the mock's OAuth server. */
export interface ConsoleOAuth {
  /** The local OAuth server (the admin mock); the reader may point the console elsewhere. */
  serverUrl: string;
  authorizePath: string;
  tokenPath: string;
  clientId: string;
  clientSecret: string;
  /** The site's OAuth redirect page, relative to the site root (`oauth/callback.html`). */
  redirectPage: string;
}

/** A server the console can send to: the local mock, a hosted sandbox, or the reader's mall. */
export interface ConsoleServer {
  label: string;
  /** Its base URL; empty where the reader has to type it (a hosted sandbox). */
  url: string;
  /** The OAuth server that goes with it (bearer APIs). */
  oauthUrl?: string;
}

/** Everything the console of one API needs. */
export interface ConsoleApi {
  api: string;
  title: string;
  /** The local mock (the spec's loopback server). */
  baseUrl: string;
  /** The servers the base-URL selector offers, the local mock first. */
  servers: ConsoleServer[];
  auth: { kind: 'basic'; username: string; password: string } | { kind: 'bearer'; oauth: ConsoleOAuth };
  operations: ConsoleOperation[];
}
