#!/usr/bin/env bash
# Local sandbox for KEY_PROVIDER=pkcs11: a SoftHSM2 token of its own (config and token folder under
# SOFTHSM_DIR, default ./data/softhsm) and the gateway's master key in it (npm run hsm:init).
# Idempotent: an existing token and key are kept. Production HSMs are initialised with their own
# tools; then only `npm run hsm:init` applies (README, "Key providers (HSM and KMS)").
#   PKCS11_PIN=... PKCS11_SO_PIN=... scripts/softhsm-init.sh
# then start the gateway with SOFTHSM2_CONF (printed), KEY_PROVIDER=pkcs11 and PKCS11_PIN.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${PKCS11_PIN:?set PKCS11_PIN, the token's user PIN}"
: "${PKCS11_SO_PIN:?set PKCS11_SO_PIN, the token's security officer PIN}"
label="${PKCS11_TOKEN_LABEL:-fiscal-gateway}"
dir="${SOFTHSM_DIR:-./data/softhsm}"
mkdir -p "$dir/tokens"
dir="$(cd "$dir" && pwd)"
conf="$dir/softhsm2.conf"
[ -f "$conf" ] || printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' "$dir/tokens" >"$conf"
export SOFTHSM2_CONF="$conf"
if softhsm2-util --show-slots | grep -Eq "^ *Label: +${label} *$"; then
  echo "token \"$label\" already exists in $dir/tokens"
else
  # softhsm2-util takes the PINs as arguments (seen by `ps` while it runs): a sandbox tool.
  softhsm2-util --init-token --free --label "$label" --pin "$PKCS11_PIN" --so-pin "$PKCS11_SO_PIN" >/dev/null
  echo "token \"$label\" created in $dir/tokens"
fi
KEY_PROVIDER=pkcs11 PKCS11_TOKEN_LABEL="$label" npm run --silent hsm:init
echo "export SOFTHSM2_CONF=$SOFTHSM2_CONF"
