// The error values of the rate-limit package: one class with a machine-readable `code`, a message
// and a context of plain facts (policy kind, key, limit…). Thrown for invalid policies, costs and
// options, and for a store that cannot answer. Not for the HTTP 429 body a server sends; that
// envelope is built in `too-many-requests.ts`.

/** Every `code` a {@link RateLimitError} can carry. */
export type RateLimitErrorCode = 'invalid_policy' | 'invalid_cost' | 'invalid_option' | 'store_failed';

/** Plain facts about the failure (policy kind, key, cost, limit…). */
export type RateLimitErrorContext = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * The one error class of this package. Branch on `code`, not on the message; `toJSON` gives the
 * name, code, message and context — never the cause or the stack.
 */
export class RateLimitError extends Error {
  /** Machine-readable reason. */
  readonly code: RateLimitErrorCode;
  /** Plain facts about the failure. */
  readonly context: RateLimitErrorContext;

  constructor(
    code: RateLimitErrorCode,
    message: string,
    options: { context?: RateLimitErrorContext; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RateLimitError';
    this.code = code;
    this.context = Object.freeze({ ...(options.context ?? {}) });
  }

  /** The serialisable form: name, code, message and context. */
  toJSON(): { name: string; code: RateLimitErrorCode; message: string; context: RateLimitErrorContext } {
    return { name: this.name, code: this.code, message: this.message, context: this.context };
  }
}
