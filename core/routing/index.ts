/** The routing library: `draw()` and everything a route set is made of. */
export { draw, deprecate, type DrawConfig, type RouteSet, type RouteSetConfig } from './route-set.ts';
export { Mapper, type Block, type Options } from './mapper.ts';
export { formatRoutes, routeRows, type RouteRow } from './print.ts';
export { createInflector, underscore, type InflectionConfig, type Inflector } from './inflector.ts';
export { polymorphicCall, modelName, isNewRecord, type Helpers, type HelperContext, type PolymorphicCall, type RouteHelpers, type RouteParam, type UrlOptions } from './helpers.ts';
export { routeHelperTypes, type HelperTypesOptions } from './helper-types.ts';
export { LinearRecognizer, type Match, type Recognizer } from './recognizer.ts';
export { TreeRecognizer } from './tree.ts';
export { HTTP_METHODS } from './route.ts';
export { RESTFUL_ACTIONS, DEFAULT_ACTIONS } from './resources.ts';
export { toParam, toQuery, cgiEscape, escapePathComponent } from './params.ts';
export type { Requirement, RequirementInput } from './requirement.ts';
export type { Route, Segment, Params, GenerateOptions, RouteRequirement } from './types.ts';
