export {
  buildCancellationEvent, buildEnvEvento, buildSubstitutionCancellationEvent, cancellationProblems, eventId,
  type CancellationInput, type SignedEvent, type SubstitutionCancellationInput,
} from './cancel-event.js';
export {
  buildCorrectionLetterEvent, CCE_CONDITIONS_OF_USE, CCE_DESC_EVENTO, correctionLetterProblems, correctionTextProblem,
  type CorrectionLetterInput,
} from './cce-event.js';
export { eventHeadProblems, type EventHead } from './event-envelope.js';
export { EventInputError, justificationProblem, normalizeJustification, type EventFieldError } from './event-input.js';
export { buildInutilization, inutilizationId, inutilizationProblems, type InutilizationInput, type SignedInutilization } from './inut-nfe.js';
export {
  buildManifestationEvent, CONCLUSIVE_MANIFESTATIONS, MANIFESTATION_DESC, manifestationProblems, NATIONAL_ENVIRONMENT_CORGAO,
  type ManifestationInput, type ManifestationType,
} from './manifestation-event.js';
export { buildProcEventoNFe, ProcEventoMismatchError } from './proc-evento.js';
export {
  buildDeliveryForecastEvent, DELIVERY_FORECAST_DESC, DELIVERY_FORECAST_TP_EVENTO, deliveryForecastProblems,
  type DeliveryForecastInput,
} from './delivery-forecast-event.js';
export {
  buildDeliveryCancelEvent, buildDeliveryFailureEvent, buildDeliveryProofEvent, DELIVERY_EVENT_CORGAO, DELIVERY_EVENT_DESC,
  DELIVERY_FAILURE_CANCEL_TP_EVENTO, DELIVERY_FAILURE_TP_EVENTO, DELIVERY_PROOF_CANCEL_TP_EVENTO, DELIVERY_PROOF_TP_EVENTO,
  deliveryCancelProblems, deliveryFailureProblems, deliveryImageHash, deliveryProofProblems, gpsCoordinate,
  type DeliveryCancelInput, type DeliveryFailureInput, type DeliveryFailureReason, type DeliveryProofInput,
} from './delivery-events.js';
export {
  buildReformIssuerEvent, FULL_PAYMENT_TP_EVENTO, IMPORT_NOT_EXEMPTED_TP_EVENTO, isLayoutDecimal, PREPAID_NOT_SUPPLIED_TP_EVENTO,
  REFORM_ISSUER_EVENT_DESC, reformIssuerEventProblems, SUPPLIER_TRANSPORT_LOSS_TP_EVENTO,
  type ReformEventItem, type ReformIssuerEventInput,
} from './reform-issuer-events.js';
export {
  buildEventCancellation, CANCELLABLE_EVENT_TYPES, EVENT_CANCELLATION_DESC, EVENT_CANCELLATION_TP_EVENTO, eventCancellationProblems,
  type EventCancellationInput,
} from './reform-event-cancel.js';
export { buildEpecEvent, EPEC_CORGAO, EPEC_TP_EVENTO, epecProblems, epecSummaryOfNfe, type EpecInput, type EpecRecipient } from './epec-event.js';
export { buildEpecNfceEvent, epecNfceProblems, epecSummaryOfNfce, type EpecNfceInput, type EpecNfceSummary } from './epec-nfce-event.js';
