// Public entry of @mall-api/client-kit: what the three generated clients share.
export {
  type ApiClient,
  type ApiClientParts,
  assembleApiClient,
  type ClientEvent,
  type ClientRuntimeOptions,
} from './api-client.js';
export { type BearerAuth, bearerAuthMiddleware } from './bearer-auth.js';
export { type DateRange, splitDateRange } from './date-ranges.js';
export {
  type CallSite,
  errorKindOf,
  isMallApiError,
  MallApiError,
  type MallApiErrorDetails,
  type MallErrorKind,
  redactSecrets,
  statusError,
  type TransportErrorKind,
  transportError,
} from './errors.js';
export { ApiRequestError, getList, type LooseGet, paginateList } from './list-pager.js';
export {
  type CallContext,
  type CallOptions,
  type CallResult,
  type MallClient,
  type MallMethod,
  wrapCalls,
} from './mall-client.js';
export {
  OffsetCapReachedError,
  type OffsetPagingOptions,
  type PageFetcher,
  paginateOffset,
} from './offset-pager.js';
export {
  attachOperationMethods,
  type LoosePaginate,
  type MethodCallOptions,
  type MethodInput,
  type MethodResult,
  type OperationMethod,
  type OperationTable,
  type OperationTree,
  type PagedOperationMethod,
} from './operation-methods.js';
export { commaListQuery } from './query-serializer.js';
