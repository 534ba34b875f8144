#!/usr/bin/env bash
# Installs the Debian packages Placard needs to build, test and run its private stack.
# Runs on every build: silent and quick when everything is present. Installs only what is
# missing (as root), or, when not root, says what is missing and how to install it, and fails.
#   scripts/deps.sh          what make, make test and the stack need
#   scripts/deps.sh --scan   the scanners of `make scan` only (sqlmap, wapiti)
set -euo pipefail

readonly PACKAGES=(
  g++ make pkg-config
  libfcgi-dev rapidjson-dev libmysqlcppconn-dev libssl-dev libcurl4-openssl-dev zlib1g-dev libgtest-dev
  mariadb-server mariadb-client
  lighttpd apache2 libapache2-mod-fcgid apache2-suexec-pristine
  wrk curl python3 openssl
  # tests/e2e/test_proxy.py: a TLS-terminating reverse proxy in front of the stack.
  haproxy
  clang-format clang-tidy
  # scripts/lint.sh: the shell and the Python linters (the JS ones come from the npm lock file).
  shellcheck python3-flake8
  # make fuzz: clang and its runtimes (libFuzzer, ASan, UBSan; a Recommends of clang, so named).
  clang libclang-rt-dev
  # The admin page's browser tests: node and npm (lock file installs by make), Debian's Chromium.
  # Debian's npm only when no npm is there: NodeSource's nodejs brings its own and conflicts.
  nodejs chromium
  $(command -v npm >/dev/null 2>&1 || echo npm)
)
# Only for `make scan` (scripts/deps.sh --scan): make test does not need them.
readonly SCAN_PACKAGES=(sqlmap wapiti)
WANTED=("${PACKAGES[@]}")
readonly POLICY_RC_D=/usr/sbin/policy-rc.d

log() { printf 'deps: %s\n' "$*" >&2; }

# Prints, one per line, the packages of WANTED that are not fully installed ("ii").
missing_packages() {
  local installed
  # One dpkg-query call for all; unknown packages only produce a message on stderr.
  installed="$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${WANTED[@]}" 2>/dev/null \
    | awk '$2 == "ii" { print $1 }' || true)"
  local pkg
  for pkg in "${WANTED[@]}"; do
    if ! grep -qxF -- "$pkg" <<<"$installed"; then
      printf '%s\n' "$pkg"
    fi
  done
}

# While installing, keep package scripts from starting system services (no systemd here, and
# we run our own private MariaDB, lighttpd and Apache). Only a policy file we created is removed.
CREATED_POLICY=0
remove_policy() {
  if [[ "$CREATED_POLICY" == 1 ]]; then
    rm -f "$POLICY_RC_D"
    CREATED_POLICY=0
  fi
}

block_service_starts() {
  if [[ ! -e "$POLICY_RC_D" ]]; then
    trap remove_policy EXIT
    trap 'remove_policy; exit 130' INT
    trap 'remove_policy; exit 143' TERM
    printf '#!/bin/sh\n# Temporary, created by placard scripts/deps.sh: do not start services.\nexit 101\n' \
      >"$POLICY_RC_D"
    chmod 0755 "$POLICY_RC_D"
    CREATED_POLICY=1
  fi
}

main() {
  if [[ "${1:-}" == --scan ]]; then WANTED=("${SCAN_PACKAGES[@]}"); fi
  local missing
  mapfile -t missing < <(missing_packages)
  if [[ "${#missing[@]}" -eq 0 ]]; then
    return 0
  fi

  if [[ "$(id -u)" -ne 0 ]]; then
    log "missing Debian packages: ${missing[*]}"
    log "install them as root with:"
    printf '  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends %s\n' \
      "${missing[*]}" >&2
    exit 1
  fi

  log "installing missing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  block_service_starts
  apt-get update -qq
  apt-get install -y -q --no-install-recommends \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
    "${missing[@]}"
  remove_policy

  mapfile -t missing < <(missing_packages)
  if [[ "${#missing[@]}" -ne 0 ]]; then
    log "still missing after apt-get install: ${missing[*]}"
    exit 1
  fi
  log "done"
}

main "$@"
