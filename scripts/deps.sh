#!/usr/bin/env bash
# Installs the Debian packages Placard needs, by group, so that building on a server never brings
# a web server, a database server or a browser:
#   scripts/deps.sh build        compiler, -dev packages, pkg-config      (make, make install)
#   scripts/deps.sh run          + what the embedded stack runs on        (make run, make start)
#   scripts/deps.sh test         + what the tests use                     (make test, make bench, ...)
#   scripts/deps.sh --scan       the scanners of `make scan` only (sqlmap, wapiti)
#   scripts/deps.sh --print GROUP  the packages of GROUP (and the groups before it), one a line
# Silent and quick when everything is present. Installs only what is missing (as root), or, when
# not root, says what is missing and how to install it, and fails. Several groups may be named.
#
# Services: package scripts are kept from starting services while installing (policy-rc.d), and
# every service unit or init script of a package this run newly installed (dependencies
# included) is disabled for boot afterwards (deb-systemd-helper / systemctl, update-rc.d): the
# project runs its own private MariaDB, lighttpd and Apache, and a server that already runs
# Apache must not find lighttpd on port 80 after its next reboot. Packages that were already
# installed keep whatever the administrator chose. docs/operations.md says so.
set -euo pipefail

readonly BUILD_PACKAGES=(
  g++ make pkg-config
  libfcgi-dev rapidjson-dev libmysqlcppconn-dev libssl-dev libcurl4-openssl-dev zlib1g-dev
)
NPM_PACKAGE=npm
if command -v npm >/dev/null 2>&1; then NPM_PACKAGE=""; fi
# shellcheck disable=SC2206 # NPM_PACKAGE: one word or none
readonly RUN_PACKAGES=(
  mariadb-server mariadb-client
  lighttpd apache2 libapache2-mod-fcgid
  curl python3 openssl
  # The admin page's chart library (uPlot) comes from the npm lock file (make node-deps).
  # Debian's npm only when no npm is there: NodeSource's nodejs brings its own and conflicts.
  nodejs
  ${NPM_PACKAGE}
)
readonly TEST_PACKAGES=(
  libgtest-dev wrk
  clang-format clang-tidy shellcheck python3-flake8
  # Shared hosting (tests/shared_hosting/, tests/e2e/test_bundle.py): Debian's suEXEC, a static shell.
  apache2-suexec-pristine busybox-static
  # tests/e2e/test_proxy.py: a TLS-terminating reverse proxy in front of the stack.
  haproxy
  # make cluster-test, its Galera topology (tests/cluster/galera.py): the provider, mariabackup SST (socat).
  galera-4 mariadb-backup socat
  # make fuzz: clang and its runtimes (libFuzzer, ASan, UBSan; a Recommends of clang, so named).
  clang libclang-rt-dev
  # The admin page's browser tests: Debian's Chromium (node from the run group).
  chromium
  # The package test (tests/package/): a fresh Debian root, the .deb built with debhelper.
  debootstrap debhelper devscripts fakeroot lintian dpkg-dev
  # The package test builds the .deb twice: ccache serves it the objects make already compiled.
  ccache
  # bench/callgrind.py: instructions per request (docs/performance.md, profiling recipes).
  valgrind
)
# Only for `make scan` (scripts/deps.sh --scan): make test does not need them.
readonly SCAN_PACKAGES=(sqlmap wapiti)
WANTED=()
readonly POLICY_RC_D=/usr/sbin/policy-rc.d
readonly INSTALL_LOCK=/run/lock/placard-deps.lock

log() { printf 'deps: %s\n' "$*" >&2; }

# Adds the packages of a group (each group includes the ones it builds on).
want() {
  case "$1" in
    build) WANTED+=("${BUILD_PACKAGES[@]}") ;;
    run) WANTED+=("${BUILD_PACKAGES[@]}" "${RUN_PACKAGES[@]}") ;;
    test) WANTED+=("${BUILD_PACKAGES[@]}" "${RUN_PACKAGES[@]}" "${TEST_PACKAGES[@]}") ;;
    --scan) WANTED+=("${SCAN_PACKAGES[@]}") ;;
    *) log "unknown group '$1' (build, run, test, --scan)"; exit 2 ;;
  esac
}

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
  done | sort -u
}

installed_packages() {
  dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' 2>/dev/null | awk '$2 == "ii" { print $1 }' | sort
}

# While installing, keep package scripts from starting system services. Only a policy file we
# created is removed.
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

# policy-rc.d stops starting, not enabling: the postinst of a server package still links its
# unit into multi-user.target.wants (and its init script into /etc/rc?.d). Undone here for the
# packages this run installed, the way an administrator would, so that upgrades keep it so.
disable_services_of() {
  (($# > 0)) || return 0
  local path name
  # One dpkg -L for all (a run may bring hundreds of packages), only their units and scripts.
  while IFS= read -r path; do
    name="${path##*/}"
    case "$path" in
      */systemd/system/*.service)
        [[ "$name" == *@.service ]] && continue
        if [[ -d /run/systemd/system ]]; then
          systemctl disable "$name" >/dev/null 2>&1 || true
        elif command -v deb-systemd-helper >/dev/null; then
          deb-systemd-helper disable "$name" >/dev/null 2>&1 || true
        fi
        log "disabled $name at boot (installed by this run; enable it yourself if you want it)"
        ;;
      /etc/init.d/*)
        update-rc.d "$name" disable >/dev/null 2>&1 || true
        ;;
    esac
  done < <(dpkg -L "$@" 2>/dev/null |
    grep -E '^((/usr)?/lib/systemd/system/[^/]+\.service|/etc/init\.d/[^/.]+)$' || true)
}

main() {
  if [[ "${1:-}" == --print ]]; then
    want "${2:-build}"
    printf '%s\n' "${WANTED[@]}"
    return 0
  fi
  (($# > 0)) || set -- build
  local group
  for group in "$@"; do want "$group"; done
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

  # One installer at a time: make runs the build and test groups side by side (-j), and two
  # apt-get runs at once fail on apt's lock (seen on a fresh machine: "Could not get lock
  # /var/lib/apt/lists/lock"), and the second one's policy-rc.d would be removed under it. The
  # one that waited asks again what is missing: usually nothing by then.
  mkdir -p "${INSTALL_LOCK%/*}"
  exec 9>"$INSTALL_LOCK"
  flock 9
  mapfile -t missing < <(missing_packages)
  if [[ "${#missing[@]}" -eq 0 ]]; then
    return 0
  fi

  log "installing missing Debian packages ($*): ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  local before new
  before="$(installed_packages)"
  block_service_starts
  apt-get update -qq
  apt-get install -y -q --no-install-recommends \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
    "${missing[@]}"
  remove_policy
  mapfile -t new < <(comm -13 <(printf '%s\n' "$before") <(installed_packages))
  disable_services_of "${new[@]}"

  mapfile -t missing < <(missing_packages)
  if [[ "${#missing[@]}" -ne 0 ]]; then
    log "still missing after apt-get install: ${missing[*]}"
    exit 1
  fi
  log "done"
}

main "$@"
