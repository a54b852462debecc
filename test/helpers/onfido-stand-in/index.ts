// A local stand-in for Onfido's API v3.6, validated against Onfido's published OpenAPI description
// (test/fixtures/onfido/openapi.json). See stand-in.ts for what a request goes through, scenarios.ts
// for the outcomes by last name.
export { startOnfidoStandIn, type OnfidoStandIn, type StandInOptions } from './stand-in.ts';
export { scenarioOf, type Scenario } from './scenarios.ts';
