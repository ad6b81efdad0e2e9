/**
 * What the request machine's names mean: each action, guard and actor is a
 * one-line adapter over a plain function of the `RequestRun` in
 * core/pipeline. Both engines call these very objects: XState through its
 * interpreter, the compiled engine by name (actors through their promise
 * creators, called directly so synchronous stages stay synchronous).
 */
import { fromPromise, setup } from 'xstate';
import * as stage from '../core/pipeline/index.ts';
import type { RequestRun } from '../core/pipeline/index.ts';
import type { ResponseMessage } from '../core/http/message.ts';

export interface RequestContext {
  readonly run: RequestRun;
}

type ErrorEvent = { readonly error?: unknown };
const errorOf = (event: unknown): unknown => (event as ErrorEvent).error;

// A stage that throws synchronously is reported as a rejection, as XState expects of a promise actor.
function promiseActor(fn: (run: RequestRun) => void | Promise<void>) {
  return fromPromise<void, RequestRun>(({ input }) => {
    try {
      return fn(input) as Promise<void>;
    } catch (error) {
      return Promise.reject(error);
    }
  });
}

export const requestSetup = setup({
  types: {} as {
    context: RequestContext;
    input: { run: RequestRun };
    output: ResponseMessage;
  },
  actors: {
    lookUpPublic: promiseActor(stage.lookUpPublic),
    parseRequest: promiseActor(stage.parseRequest),
    dispatchAction: promiseActor(stage.dispatchAction),
  },
  actions: {
    storeError: ({ context, event }) => stage.storeError(context.run, errorOf(event)),
    rejectForgery: ({ context }) => stage.rejectForgery(context.run),
    negotiate: ({ context }) => stage.negotiate(context.run),
    checkForgery: ({ context }) => stage.checkForgery(context.run),
    recognize: ({ context }) => stage.recognize(context.run),
    prepareResponse: ({ context }) => stage.prepareResponse(context.run),
    renderNotModified: ({ context }) => stage.renderNotModified(context.run),
    recordNoRoute: ({ context }) => stage.recordNoRoute(context.run),
    recordMethodNotAllowed: ({ context }) => stage.recordMethodNotAllowed(context.run),
    renderError: ({ context }) => stage.renderError(context.run),
    renderRescue: ({ context }) => stage.renderRescue(context.run),
    respond: ({ context }) => stage.respond(context.run),
  },
  guards: {
    publicAnswerFound: ({ context }) => stage.publicAnswerFound(context.run),
    isUnknownMethod: ({ event }) => stage.isUnknownMethod(errorOf(event)),
    isNotAcceptable: ({ event }) => stage.isNotAcceptable(errorOf(event)),
    isForgeryRejected: ({ event }) => stage.isForgeryRejected(errorOf(event)),
    routeFound: ({ context }) => stage.routeFound(context.run),
    isUnroutedForgery: ({ context }) => stage.isUnroutedForgery(context.run),
    pathAllowsOtherMethods: ({ context }) => stage.pathAllowsOtherMethods(context.run),
    isFresh: ({ context }) => stage.isFresh(context.run),
  },
});
