export { startAuthoritySimulator, type AuthoritySimulator, type AuthoritySimulatorOptions } from './authority-simulator.js';
export { runAuthoritySimCli } from './cli.js';
export { parseScenario, SCENARIO_HEADER, type Scenario } from './scenario.js';
