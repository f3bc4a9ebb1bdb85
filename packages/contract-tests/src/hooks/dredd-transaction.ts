// A Dredd transaction as the hooks see it, and the small edits every hook makes to one: its URI
// (kept under the base URL's own path) and a skip with its reason.

/** The parts of a Dredd transaction the hooks read and change. */
export interface DreddTransaction {
  origin: { resourceName: string };
  request: { method: string; uri: string; headers: Record<string, string>; body?: string };
  expected: { statusCode: string; bodySchema?: string };
  real?: { statusCode: number; headers?: Record<string, string> };
  fullPath?: string;
  skip?: boolean;
  skipReason?: string;
  fail?: string;
}

/** A request URI's path and query parameters. */
export const splitUri = (uri: string) => {
  const [path = '', query = ''] = uri.split('?');
  return { path, params: new URLSearchParams(query) };
};

/**
 * Sets the request's URI, and the full path Dredd requests: the URI under the base URL's own path
 * (a per-mall base URL, `…/__mall/<id>`, keeps its mall), as Dredd builds it for the URIs it made.
 */
export const setUri = (
  transaction: DreddTransaction,
  basePath: string,
  path: string,
  params: URLSearchParams,
) => {
  const query = params.toString().replace(/%2C/g, ',');
  const uri = query ? `${path}?${query}` : path;
  transaction.request.uri = uri;
  transaction.fullPath = `${basePath.replace(/\/$/, '')}${uri}`;
};

/** Marks the transaction skipped, saying why. */
export const skip = (transaction: DreddTransaction, reason: string) => {
  transaction.skip = true;
  transaction.skipReason = reason;
};
