#!/usr/bin/env bash
# The tests need Chromium (browser and end-to-end tests), PostgreSQL (the server suite's
# second run) and two real documentation sets that the reader is tested on (the PostgreSQL 15
# manual and the Python 3.11 docs; those tests are skipped without them). Installs them from
# Debian's packages when missing and we may; otherwise says how.
set -euo pipefail
missing=()
command -v "${CHROME_PATH:-/usr/bin/chromium}" >/dev/null 2>&1 || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
optional=()
[ -d /usr/share/doc/postgresql-doc-15/html ] || optional+=(postgresql-doc-15)
[ -d /usr/share/doc/python3.11/html ] || optional+=(python3.11-doc)
[ ${#missing[@]} -eq 0 ] && [ ${#optional[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${missing[*]} ${optional[*]} for the tests (apt-get)…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" "${optional[@]}" >/dev/null
elif [ ${#missing[@]} -gt 0 ]; then
  echo "The tests need: ${missing[*]}. Install them, e.g.: sudo apt-get install -y ${missing[*]} ${optional[*]}" >&2
  exit 1
else
  echo "The tests on real documentation sets are skipped without: ${optional[*]} (sudo apt-get install -y ${optional[*]})" >&2
fi
