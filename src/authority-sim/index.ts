export { startAuthoritySimulator, type AuthoritySimulator, type AuthoritySimulatorOptions } from './authority-simulator.js';
export { runAuthoritySimCli, startStandaloneSimulator, type StandaloneSimulator } from './cli.js';
export { parseScenario, SCENARIO_HEADER, type Scenario } from './scenario.js';
export { remoteSimulatorLink, waitForSimulator, SimulatorAdminError } from './sim-admin-client.js';
export { inProcessLink, type SimulatorLink } from './sim-link.js';
