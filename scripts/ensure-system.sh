#!/usr/bin/env bash
# The tests need Chromium (browser and end-to-end tests) and PostgreSQL (the server suite's
# second run). Installs them from Debian's packages when missing and we may; otherwise says how.
set -euo pipefail
missing=()
command -v "${CHROME_PATH:-/usr/bin/chromium}" >/dev/null 2>&1 || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${missing[*]} for the tests (apt-get)…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "The tests need: ${missing[*]}. Install them, e.g.: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
