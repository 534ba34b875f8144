#!/bin/sh
# Placard's @PROGRAM@, as the web server (mod_fcgid, under suEXEC) or cron starts it. suEXEC keeps
# no variable of ours, so everything is found from this file's own place: the config is
# placard.conf beside it (PLACARD_CONFIG may name another, e.g. from cron), and the program runs
# through the bundle's own dynamic loader and libraries, whatever the host's C library is.
case $0 in
  */*) here=${0%/*} ;;
  *) here=. ;;
esac
here=$(cd "$here" && pwd) || exit 1
PLACARD_CONFIG=${PLACARD_CONFIG:-$here/placard.conf}
MARIADB_PLUGIN_DIR=$here/lib/mariadb
export PLACARD_CONFIG MARIADB_PLUGIN_DIR
exec "$here/lib/ld-linux-x86-64.so.2" --library-path "$here/lib" "$here/bin/@PROGRAM@" "$@"
