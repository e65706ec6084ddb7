export const NFE_MODEL = 55 as const;
// Series 1 for every issuer until issuers get series of their own: numbers are per issuer+model+series.
export const NFE_SERIE = 1;
export const NFE_AUTHORIZE_JOB = 'nfe.authorize';
export const NFE_CANCEL_JOB = 'nfe.cancel';
export const NFE_CCE_JOB = 'nfe.cce';
export const NFE_REFORM_EVENT_JOB = 'nfe.reform_event';
export const NFE_DELIVERY_EVENT_JOB = 'nfe.delivery_event';
