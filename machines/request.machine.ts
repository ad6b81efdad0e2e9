/**
 * The request machine: every request goes parse → negotiate → forgery check
 * → recognize → dispatch → render/ETag → respond, with an explicit state for
 * each way it can end early. Before all that, a GET or HEAD that a file
 * under the app's public directory or a cached page answers goes straight
 * from `servingPublic` to `responding`: it is traced, logged and finished
 * like every other request, and nothing answers around the machine.
 *
 * This file is the definition only: states, transitions, and the *names* of
 * actions, guards and actors. Their behaviour lives in core/pipeline (plain
 * functions over one mutable `RequestRun`) and is supplied through
 * `setup()` in request.setup.ts. The same definition is drawn by the
 * inspector, walked by the model-based tests, run by XState itself
 * (`engine: 'xstate'`) and compiled into a transition table (the default
 * engine, machines/compile.ts).
 *
 * Two answers are needed before the stage that can give them:
 * - The format can come from a `.:format` route parameter, which only
 *   recognition yields. `negotiate` therefore computes what it can early
 *   (the Accept list, a `?format=` parameter); the request's format is
 *   settled lazily when dispatch first asks for it, after recognition has
 *   added the path parameters.
 * - Forgery protection is declared per controller, and the controller is
 *   only known after recognition. `checkForgery` therefore computes the
 *   verdict (does this request need a token, and does it carry the right
 *   one, judged by its Content-Type rather than its URL format); the
 *   controller's `protect_from_forgery` filter decides during dispatch, and
 *   a rejection arrives here as an error routed to `forgeryRejected`. A
 *   request no route takes is judged here instead (there is no controller
 *   to ask): without the session's token it is rejected too, so a forger
 *   cannot map the routes by their 404s and 405s.
 */
import { requestSetup } from './request.setup.ts';

export const requestMachine = requestSetup.createMachine({
  id: 'request',
  context: ({ input }) => ({ run: input.run }),
  initial: 'servingPublic',
  states: {
    // An invocation, not an entry action: XState defers the initial state's entry actions until the
    // actor starts, after the guards of its eventless transitions have been tried.
    servingPublic: {
      invoke: {
        src: 'lookUpPublic',
        input: ({ context }) => context.run,
        onDone: [
          { guard: 'publicAnswerFound', target: 'responding' },
          { target: 'parsing' },
        ],
        onError: { target: 'rescuing', actions: 'storeError' },
      },
    },
    parsing: {
      invoke: {
        src: 'parseRequest',
        input: ({ context }) => context.run,
        onDone: { target: 'negotiating' },
        onError: [
          { guard: 'isUnknownMethod', target: 'unknownMethod', actions: 'storeError' },
          { target: 'rescuing', actions: 'storeError' },
        ],
      },
    },
    negotiating: {
      entry: 'negotiate',
      always: { target: 'checkingForgery' },
    },
    checkingForgery: {
      entry: 'checkForgery',
      always: { target: 'recognizing' },
    },
    recognizing: {
      entry: 'recognize',
      always: [
        { guard: 'routeFound', target: 'dispatching' },
        { guard: 'isUnroutedForgery', target: 'forgeryRejected', actions: 'rejectForgery' },
        { guard: 'pathAllowsOtherMethods', target: 'methodNotAllowed', actions: 'recordMethodNotAllowed' },
        { target: 'routingError', actions: 'recordNoRoute' },
      ],
    },
    dispatching: {
      invoke: {
        src: 'dispatchAction',
        input: ({ context }) => context.run,
        onDone: { target: 'rendering' },
        onError: [
          { guard: 'isNotAcceptable', target: 'notAcceptable', actions: 'storeError' },
          { guard: 'isForgeryRejected', target: 'forgeryRejected', actions: 'storeError' },
          { target: 'rescuing', actions: 'storeError' },
        ],
      },
    },
    rendering: {
      entry: 'prepareResponse',
      always: [
        { guard: 'isFresh', target: 'notModified' },
        { target: 'responding' },
      ],
    },
    notModified: {
      entry: 'renderNotModified',
      always: { target: 'responding' },
    },
    routingError: {
      entry: 'renderError',
      always: { target: 'responding' },
    },
    methodNotAllowed: {
      entry: 'renderError',
      always: { target: 'responding' },
    },
    unknownMethod: {
      entry: 'renderError',
      always: { target: 'responding' },
    },
    notAcceptable: {
      entry: 'renderError',
      always: { target: 'responding' },
    },
    forgeryRejected: {
      entry: 'renderError',
      always: { target: 'responding' },
    },
    rescuing: {
      entry: 'renderRescue',
      always: { target: 'responding' },
    },
    responding: {
      entry: 'respond',
      always: { target: 'done' },
    },
    done: {
      type: 'final',
    },
  },
  output: ({ context }) => context.run.output!,
});

export type RequestMachine = typeof requestMachine;
