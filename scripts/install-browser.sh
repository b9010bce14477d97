#!/usr/bin/env bash
# Installs what the browser check needs from Debian's packages: headless Chromium (to load the
# HTML report and photograph the screen's SVG) and Tesseract (to read the photograph back).
# Idempotent: does nothing when both are already installed. Needs root (apt-get); elsewhere,
# install the same packages by hand (docs/screen.md).
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v tesseract >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-browser.sh: needs root to apt-get install chromium tesseract-ocr tesseract-ocr-eng" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium tesseract-ocr tesseract-ocr-eng fonts-dejavu-core >/dev/null
chromium --version
