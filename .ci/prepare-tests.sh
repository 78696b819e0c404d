#!/usr/bin/env bash
# Everything `npm test` needs beyond node_modules, made ready or named: the Debian packages of
# .ci/system-packages.txt (installed when running as root, otherwise one line saying what to
# install), the Python reference peers (.ci/setup-python.sh), the official SBE tool's jar and k6
# (built from source with Go). Fast when all is present, so `npm test` runs it every time (npm's
# "pretest").
#   --system-only   only the Debian packages (.ci/run needs build-essential before `npm ci`)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
mapfile -t wanted < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e 's/[[:space:]]*$//' .ci/system-packages.txt)

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for pkg in "${wanted[@]}"; do
    [[ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null)" == installed ]] || missing+=("$pkg")
  done
else
  echo "prepare-tests: not a Debian system; cannot check for: ${wanted[*]}" >&2
fi

if ((${#missing[@]})); then
  if [[ $EUID -ne 0 ]]; then
    echo "npm test needs Debian packages that are missing; run: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "prepare-tests: apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # tests start their own nginx on their own ports: installing must not start system services
  policy=/usr/sbin/policy-rc.d
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod +x "$policy"
    trap 'rm -f "$policy"' EXIT
  fi
  log="$(mktemp)"
  if ! { apt-get update -qq && apt-get install -y -qq "${missing[@]}"; } >"$log" 2>&1; then
    tail -n 40 "$log"
    echo "prepare-tests: apt-get install failed (full log: $log)" >&2
    exit 1
  fi
fi
[[ ${1:-} == --system-only ]] && exit 0

bash .ci/setup-python.sh

# the SBE XML export is proven with the official tool; fetched once into the git-ignored .cache/ so
# the tests never download (keep the version in step with exporters/test/sbe/sbeTool.ts)
sbe_jar=".cache/m2/uk/co/real-logic/sbe-all/1.38.1/sbe-all-1.38.1.jar"
if [[ ! -f $sbe_jar ]]; then
  echo "prepare-tests: fetching the SBE tool (sbe-all 1.38.1) from Maven Central"
  mvn -q -B -Dmaven.repo.local="$PWD/.cache/m2" dependency:get -Dartifact=uk.co.real-logic:sbe-all:1.38.1 -Dtransitive=false
fi

# the k6 export runs under real k6 (services/loadgen/test/export.test.ts): built once from the Go
# module proxy into the git-ignored .cache/ (about 70 s on 2 cores; keep the version in step with
# services/loadgen/test/k6Tool.ts)
k6_version="v1.8.1"
k6_bin=".cache/k6/${k6_version}/k6"
if [[ ! -x $k6_bin ]]; then
  if ! command -v go >/dev/null 2>&1; then
    echo "npm test runs the k6 export under k6, which is built from source: install Go (https://go.dev/dl/) and run it again" >&2
    exit 1
  fi
  echo "prepare-tests: building k6 ${k6_version} with $(go version | cut -d' ' -f3) (once; cached in .cache/k6)"
  mkdir -p .cache
  k6_tmp="$(mktemp -d "$PWD/.cache/k6-build.XXXXXX")"
  log="$(mktemp)"
  if ! GOBIN="$k6_tmp" go install "go.k6.io/k6@${k6_version}" >"$log" 2>&1; then
    tail -n 40 "$log"
    rm -rf "$k6_tmp"
    echo "prepare-tests: building k6 failed (full log: $log)" >&2
    exit 1
  fi
  # moved into place whole, so an interrupted build never leaves a half-written binary behind
  mkdir -p "$(dirname "$k6_bin")"
  mv "$k6_tmp/k6" "$k6_bin"
  rm -rf "$k6_tmp"
fi
