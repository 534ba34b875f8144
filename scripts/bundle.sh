#!/usr/bin/env bash
# Makes the portable bundle: build/placard-VERSION-linux-x86_64.tar.gz, for any x86-64 Linux
# (kernel 3.2 or later: glibc 2.36's floor) with none of our libraries installed, e.g. a shared
# host (docs/shared-hosting.md). Called by `make bundle` after it linked the bundle's binaries
# ($BUILD/bundle-bin: libstdc++, libgcc, libfcgi and Connector/C++ static). Everything else they
# need, down to the C library and the dynamic loader of this build, is copied into lib/, and the
# wrappers start the binaries through that loader, so the host's own glibc never matters.
#
# Layout (the directory is what the web server serves; .htaccess refuses the inner folders):
#   placard.fcgi, placardctl   wrappers (POSIX sh): what Apache and cron execute
#   bin/                       the ELF binaries
#   lib/                       shared libraries, ld-linux-x86-64.so.2, lib/mariadb/ (auth plugins)
#   sql/                       migrations;   admin/   the admin page with its chart library
#   .htaccess                  the recipe for a directory that is Placard's base path
#   root.htaccess              lines for public_html/.htaccess when Placard answers at the root
#   ca-certificates.crt        used when the system has no CA bundle;   VERSION, README.txt
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD="${BUILD:-build}"
VERSION="$(cat VERSION 2>/dev/null || echo 0.0.0)"
NAME="placard-$VERSION-linux-x86_64"
STAGE="$BUILD/bundle/$NAME"
OUT="$BUILD/$NAME.tar.gz"
PLUGINS=/usr/lib/x86_64-linux-gnu/libmariadb3/plugin
CA=/etc/ssl/certs/ca-certificates.crt

die() { printf 'bundle: %s\n' "$*" >&2; exit 1; }
[[ -x "$BUILD/bundle-bin/placard.fcgi" && -x "$BUILD/bundle-bin/placardctl" ]] ||
  die "$BUILD/bundle-bin holds no binaries (run: make bundle)"

rm -rf -- "$STAGE"
mkdir -p -- "$STAGE/bin" "$STAGE/lib/mariadb" "$STAGE/sql" "$STAGE/admin"
cp -- "$BUILD/bundle-bin/placard.fcgi" "$BUILD/bundle-bin/placardctl" "$STAGE/bin/"
strip --strip-debug -- "$STAGE"/bin/*  # a quarter of the size; build/ keeps the symbols
cp -- "$PLUGINS"/*.so "$STAGE/lib/mariadb/"

# Every shared library the binaries and the plugins load, and the loader itself, by soname.
copy_libs() {
  local file
  for file in "$@"; do
    ldd "$file" | awk '/=> \// { print $3 } /^\t\/.*ld-linux/ { print $1 }'
  done | sort -u | while read -r lib; do
    cp -L -- "$lib" "$STAGE/lib/$(basename "$lib")"
  done
}
copy_libs "$STAGE"/bin/* "$STAGE"/lib/mariadb/*.so
[[ -e "$STAGE/lib/ld-linux-x86-64.so.2" ]] || die "the dynamic loader was not found by ldd"
chmod 0644 -- "$STAGE"/lib/*.so* "$STAGE"/lib/mariadb/*.so
chmod 0755 -- "$STAGE/lib/ld-linux-x86-64.so.2"

cp -- sql/*.sql "$STAGE/sql/"
cp -R -- admin-static/. "$STAGE/admin/"
uplot=node_modules/uplot/dist
[[ -r "$uplot/uPlot.esm.js" ]] || die "$uplot is missing (run: make node-deps)"
mkdir -p -- "$STAGE/admin/vendor"
cp -- "$uplot/uPlot.esm.js" "$uplot/uPlot.min.css" "$STAGE/admin/vendor/"
cp -- "$CA" "$STAGE/ca-certificates.crt"
printf '%s\n' "$VERSION" >"$STAGE/VERSION"
cp -- shared-hosting/htaccess "$STAGE/.htaccess"
cp -- shared-hosting/root.htaccess "$STAGE/root.htaccess"
cp -- shared-hosting/admin.htaccess "$STAGE/admin/.htaccess"
cp -- shared-hosting/README.txt "$STAGE/README.txt"
for prog in placard.fcgi placardctl; do
  sed "s/@PROGRAM@/$prog/" shared-hosting/wrapper.sh >"$STAGE/$prog"
done

# suEXEC refuses anything group- or world-writable; the unpacking user owns every file.
find "$STAGE" -type d -exec chmod 0755 {} +
find "$STAGE" -type f ! -perm -u+x -exec chmod 0644 {} +
chmod 0755 -- "$STAGE/placard.fcgi" "$STAGE/placardctl" "$STAGE"/bin/*

tar -C "$BUILD/bundle" --owner=0 --group=0 --numeric-owner -czf "$OUT" "$NAME"
printf 'bundle: %s (%s)\n' "$OUT" "$(du -h "$OUT" | cut -f1)"
