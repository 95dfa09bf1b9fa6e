#!/usr/bin/env bash
# The C libraries the build links against, installed from Debian's packages when missing: SQLite for
# GRDB, zlib for compress-nio, libdeflate for packs' and snapshots' deflate (InkwellWire's CLibDeflate);
# PostgreSQL 15, whose initdb and pg_ctl the tests use to start throw-away clusters (PostgresCluster);
# rsync, with which the shared-folder tests copy one replica's folder to another's; and zbar-tools, whose
# zbarimg reads back the QR codes the page draws for a LAN hub's address.
# Run by .ci/run; on a fresh machine, run it once before `swift run inkwell serve`.
set -euo pipefail

missing=()
for package in libsqlite3-dev zlib1g-dev libdeflate-dev postgresql-15 rsync zbar-tools; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    echo "== installing ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
