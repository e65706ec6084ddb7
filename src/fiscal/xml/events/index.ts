export {
  buildCancellationEvent, buildEnvEvento, buildSubstitutionCancellationEvent, cancellationProblems, eventId,
  type CancellationInput, type SignedEvent, type SubstitutionCancellationInput,
} from './cancel-event.js';
export { EventInputError, justificationProblem, normalizeJustification, type EventFieldError } from './event-input.js';
export { buildInutilization, inutilizationId, inutilizationProblems, type InutilizationInput, type SignedInutilization } from './inut-nfe.js';
