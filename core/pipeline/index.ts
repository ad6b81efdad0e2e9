/** The request pipeline's stages, as plain functions of one `RequestRun`. */
export { actionOf, createRun, type AppConfig, type AppRuntime, type ControllerClass, type RequestRun } from './run.ts';
export { parseRequest, negotiate } from './parse.ts';
export { checkForgery, exemptContentType, isUnroutedForgery, rejectForgery } from './forgery.ts';
export { recognize, routeFound, pathAllowsOtherMethods } from './recognize.ts';
export { dispatchAction } from './dispatch.ts';
export { prepareResponse, isFresh, renderNotModified } from './freshness.ts';
export {
  storeError, isUnknownMethod, isNotAcceptable, isForgeryRejected,
  renderRoutingError, renderMethodNotAllowed, renderUnknownMethod, renderNotAcceptable, renderForgeryRejected, renderRescue, rescueTemplate,
} from './failures.ts';
export { respond } from './respond.ts';
