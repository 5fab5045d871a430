#!/usr/bin/env bash
# Creates the dlperf Conan package and runs its test_package, fully offline: Conan from pip into a
# virtual environment, CONAN_HOME in a scratch folder, Boost from the system through
# .ci/conan-bookworm.profile, and --no-remote so no recipe or binary is downloaded.
set -euo pipefail
cd "$(dirname "$0")/.."

work="${1:-build-conan}"
mkdir -p "$work"
if [ ! -x "$work/venv/bin/conan" ]; then
  if ! python3 -m venv "$work/venv" 2>/dev/null; then
    # Debian's python3 needs python3-venv for venvs with pip.
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      python3-venv >/dev/null
    rm -rf "$work/venv"
    python3 -m venv "$work/venv"
  fi
  "$work/venv/bin/pip" install --quiet --disable-pip-version-check "conan>=2.0,<3"
fi
export CONAN_HOME="$PWD/$work/home"
rm -rf "$CONAN_HOME"
"$work/venv/bin/conan" profile detect --force >/dev/null
"$work/venv/bin/conan" create . --profile:all .ci/conan-bookworm.profile --no-remote \
  --build=missing
