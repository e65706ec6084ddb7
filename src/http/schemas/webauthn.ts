import { Type } from 'typebox';
import { Timestamp } from './common.js';

// WebAuthn's JSON forms (WebAuthn L3 §5.1: RegistrationResponseJSON, AuthenticationResponseJSON) as
// @simplewebauthn/browser and PublicKeyCredential.toJSON() send them. Every string is bounded: a
// credential id is at most 1023 bytes (L3 §4), its base64url 1364 characters.
const B64 = (maxLength: number, description: string) => Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]*={0,2}$', description });
const CredentialId = B64(1400, 'The credential id, base64url');
const Transports = Type.Array(Type.String({ maxLength: 32 }), { maxItems: 10, description: 'How the browser reaches the authenticator: internal, hybrid, usb, nfc, ble' });
const common = {
  id: CredentialId,
  rawId: CredentialId,
  type: Type.Literal('public-key'),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
  clientExtensionResults: Type.Optional(Type.Object(
    { credProps: Type.Optional(Type.Object({ rk: Type.Optional(Type.Boolean()) }, { additionalProperties: false })) },
    { additionalProperties: false, description: 'Extension outputs; only credProps is read (and none is stored)' },
  )),
};

export const PasskeyRegistrationBody = Type.Object(
  {
    ...common,
    response: Type.Object(
      {
        clientDataJSON: B64(4096, 'The client data the browser built, base64url'),
        attestationObject: B64(16384, 'CBOR: the new public key inside authenticator data (attestation "none")'),
        transports: Type.Optional(Transports),
        authenticatorData: Type.Optional(B64(8192, 'Also inside attestationObject; not read')),
        publicKey: Type.Optional(B64(4096, 'SPKI copy of the key; not read (the COSE key of attestationObject is)')),
        publicKeyAlgorithm: Type.Optional(Type.Integer({ minimum: -65536, maximum: 65536 })),
      },
      { additionalProperties: false },
    ),
    name: Type.Optional(Type.String({ maxLength: 64, description: 'A name to tell your passkeys apart (default: "Passkey" and the date)' })),
  },
  { additionalProperties: false, title: 'PasskeyRegistrationResponse' },
);

const assertion = {
  ...common,
  response: Type.Object(
    {
      clientDataJSON: B64(4096, 'The client data the browser built, base64url'),
      authenticatorData: B64(8192, 'RP ID hash, flags and signature counter, base64url'),
      signature: B64(1024, 'The assertion signature, base64url'),
      userHandle: Type.Optional(Type.String({ maxLength: 128, pattern: '^[A-Za-z0-9_-]*={0,2}$', description: 'The user handle a discoverable passkey returns' })),
    },
    { additionalProperties: false },
  ),
};

export const PasskeyStepUpBody = Type.Object(assertion, { additionalProperties: false, title: 'PasskeyAssertion' });

export const PasskeyAuthenticationBody = Type.Object(
  {
    ...assertion,
    challenge_token: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The `challenge_token` of a password sign-in, when the options were asked with it' })),
    account_id: Type.Optional(Type.String({ maxLength: 64, description: 'The account to act on; default: your oldest membership' })),
  },
  { additionalProperties: false, title: 'PasskeyAuthenticationResponse' },
);

export const PasskeyOptionsBody = Type.Object(
  { challenge_token: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A password sign-in\'s `challenge_token`: the passkey answers it as the second factor. Absent: sign in with a passkey alone' })) },
  { additionalProperties: false },
);

const Descriptor = Type.Object({ id: Type.String(), type: Type.String({ description: 'public-key' }), transports: Type.Optional(Type.Array(Type.String())) });
const Challenge = Type.String({ description: 'base64url; single-use, valid 5 minutes' });

export const PasskeyRegistrationOptions = Type.Object(
  {
    object: Type.Literal('passkey_registration_options'),
    expires_at: Timestamp,
    options: Type.Object(
      {
        challenge: Challenge,
        rp: Type.Object({ id: Type.Optional(Type.String()), name: Type.String() }),
        user: Type.Object({ id: Type.String({ description: 'The user handle (base64url of the user id)' }), name: Type.String(), displayName: Type.String() }),
        pubKeyCredParams: Type.Array(Type.Object({ type: Type.String({ description: 'public-key' }), alg: Type.Integer({ description: 'COSE algorithm: -8 EdDSA, -7 ES256, -257 RS256' }) })),
        timeout: Type.Optional(Type.Integer()),
        attestation: Type.Optional(Type.String()),
        excludeCredentials: Type.Optional(Type.Array(Descriptor)),
        authenticatorSelection: Type.Optional(Type.Object({
          residentKey: Type.Optional(Type.String()),
          requireResidentKey: Type.Optional(Type.Boolean()),
          userVerification: Type.Optional(Type.String()),
          authenticatorAttachment: Type.Optional(Type.String()),
        })),
        extensions: Type.Optional(Type.Object({ credProps: Type.Optional(Type.Boolean()) })),
        hints: Type.Optional(Type.Array(Type.String())),
      },
      { description: 'PublicKeyCredentialCreationOptionsJSON: decode challenge, user.id and excludeCredentials[].id from base64url, then navigator.credentials.create({publicKey})' },
    ),
  },
  { title: 'PasskeyRegistrationOptions' },
);

export const PasskeyAuthenticationOptions = Type.Object(
  {
    object: Type.Literal('passkey_authentication_options'),
    expires_at: Timestamp,
    options: Type.Object(
      {
        challenge: Challenge,
        rpId: Type.Optional(Type.String()),
        timeout: Type.Optional(Type.Integer()),
        userVerification: Type.Optional(Type.String()),
        allowCredentials: Type.Optional(Type.Array(Descriptor)),
        hints: Type.Optional(Type.Array(Type.String())),
      },
      { description: 'PublicKeyCredentialRequestOptionsJSON: decode challenge and allowCredentials[].id from base64url, then navigator.credentials.get({publicKey})' },
    ),
  },
  { title: 'PasskeyAuthenticationOptions' },
);

export const Passkey = Type.Object(
  {
    id: Type.String({ examples: ['pky_4Hc9sT2kQm1ZpW8vXy3B'] }),
    object: Type.Literal('passkey'),
    name: Type.String(),
    device_type: Type.Union([Type.String({ description: 'singleDevice or multiDevice (synced)' }), Type.Null()]),
    backed_up: Type.Boolean({ description: 'The passkey is synced to a cloud account (it survives the loss of the device)' }),
    transports: Type.Array(Type.String()),
    created_at: Timestamp,
    last_used_at: Type.Union([Timestamp, Type.Null()]),
    suspended: Type.Boolean({ description: 'A password reset suspended it (added in the 24 hours before the reset): it signs nobody in until confirmed at POST /v1/auth/factors/{id}/confirm.' }),
  },
  { title: 'Passkey' },
);

export const PasskeyList = Type.Object({ data: Type.Array(Passkey), has_more: Type.Boolean() }, { title: 'PasskeyList' });
