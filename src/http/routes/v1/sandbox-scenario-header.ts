import type { FastifySchemaCompiler } from 'fastify';
import { Type } from 'typebox';
import type { GatewayEnv } from '../../../config.js';
import { ApiError } from '../../../kernel/errors.js';
import { validatorCompiler } from '../../validation.js';

const HEADER = 'x-sandbox-scenario';

/** What a validator built by a schema compiler answers. */
type Validation = ReturnType<ReturnType<FastifySchemaCompiler<unknown>>>;

/**
 * X-Sandbox-Scenario: a failure the SEFAZ simulator understands (docs/decisions.md#the-authority-simulator). Empty is no scenario,
 * as it always was.
 */
export const SandboxScenarioHeader = Type.Optional(
  Type.String({
    pattern: '^(reject:[0-9]{3,4}|reject:E[0-9]{4}|deny|timeout|lost-response|unavailable|http-500|malformed|async|outage:([1-9][0-9]{0,2}|[12][0-9]{3}|3[0-5][0-9]{2}|3600)(:109|:no-answer)?|throttle(:[0-9]{1,3})?|refuse-profile:(rsa-sha1-c14n|rsa-sha256-exc-c14n))?$',
    description:
      'Sandbox only: the failure the simulated authority should produce (NF-e and NFC-e also: outage:N, outage:N:109 or outage:N:no-answer, ' +
      "the SEFAZ down for N seconds (1-3600) for this issuer only; NFS-e: reject:E0xxx, throttle[:N], refuse-profile:rsa-sha1-c14n or refuse-profile:rsa-sha256-exc-c14n)",
  }),
);

/** Whether the schema refused this header: the app's validator reports ajv's errors on `validation`. */
function refusedHeader(result: Validation): boolean {
  if (typeof result !== 'object' || !('error' in result) || !(result.error instanceof Error) || !('validation' in result.error)) return false;
  const problems = result.error.validation;
  return Array.isArray(problems) && problems.some((p) => p?.instancePath === `/${HEADER}`);
}

/**
 * The app's validator, except that the headers answer for X-Sandbox-Scenario as they always have:
 * 400 outside the sandbox whatever its value, and when the pattern refuses it a 422 naming the
 * header as clients write it and the scenarios in words (not `header.x-sandbox-scenario` and a regex).
 * Headers are validated after the body, so a bad body is still reported first.
 */
export function sandboxScenarioValidator(env: GatewayEnv): FastifySchemaCompiler<unknown> {
  return (req) => {
    const validate = validatorCompiler(req);
    if (req.httpPart !== 'headers') return validate;
    return (headers: Record<string, unknown>) => {
      const scenario = headers[HEADER];
      if (typeof scenario === 'string' && scenario !== '' && env !== 'sandbox') {
        return { error: new ApiError('invalid_request', 'X-Sandbox-Scenario is only accepted in the sandbox') };
      }
      const result = validate(headers);
      if (!refusedHeader(result)) return result;
      return {
        error: new ApiError('validation_error', `Unknown sandbox scenario "${String(scenario)}"`, [
          { field: 'header.X-Sandbox-Scenario', message: 'must be reject:<cStat>, deny, timeout, lost-response, unavailable, http-500, malformed, async or outage:<seconds 1-3600>[:109|:no-answer] (NFS-e also: reject:E<code>, throttle[:seconds], refuse-profile:rsa-sha1-c14n|rsa-sha256-exc-c14n)' },
        ]),
      };
    };
  };
}
