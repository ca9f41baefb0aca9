/**
 * pulumi-svc: the resource classes users import. Resources arrive with their issues; the client's
 * error types are exported so programs can branch on an API `code`.
 */
export { ApiError, OutcomeUnknownError, isApiError } from "../provider/client/errors";
export { settingDefs } from "../provider/config";
