#!/bin/sh
# Install the Debian packages cosrod needs (libsuitesparse-dev: KLU), if any are missing.
# As root: apt-get update && apt-get install -y ...; otherwise print the command.
# `tools/install-deps.sh bench` adds what `make bench` needs on top: python3
# (bench/papers/report.py writes the report) and valgrind (callgrind counts).
set -e
PKGS="build-essential cmake pkg-config liblapacke-dev liblapack-dev libblas-dev libyaml-dev gnuplot-nox libsundials-dev libsuitesparse-dev clang python3-dev python3-numpy python3-pytest python3-pandas python3-matplotlib python3-scipy python3-dask python3-distributed"
[ "${1:-}" = bench ] && PKGS="$PKGS python3 valgrind"
missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq $missing >/dev/null
else
  echo "cosrod needs these Debian packages:$missing" >&2
  echo "run:  sudo apt-get update && sudo apt-get install -y$missing" >&2
  exit 1
fi
