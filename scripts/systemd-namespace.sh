#!/usr/bin/env bash
# Boots a systemd system manager as PID 1 of a new PID and mount namespace, for running
# config/clarityd.service under a real systemd on a machine whose own init is not systemd (a
# container, a CI runner): ServiceManagerTests.theUnitUnderASystemdInANamespace does.
#
#   scripts/systemd-namespace.sh UNIT_DIR
#
# Root only (unshare). Inside the namespace /run is a private tmpfs, the units in UNIT_DIR are
# installed as runtime units, journald keeps its journal in /run only, and the boot-time units
# that clean or set up the machine (systemd-tmpfiles-*, which empties /tmp) are masked: only
# clarity-test.target and what the test starts run. Nothing outside the namespace is changed.
# Reach it with `nsenter -t <PID of its systemd> -m -p systemctl …`; it ends when killed, and
# when the process that started it dies (a test run that crashed once left its systemd and unit
# running, and every later run's `systemctl kill` then failed with EIO on the shared cgroups):
# `setpriv --pdeathsig` kills `unshare` with its parent, and `--kill-child` the namespace with it.
set -euo pipefail
units="${1:?usage: systemd-namespace.sh UNIT_DIR}"
systemd=""
for candidate in /lib/systemd/systemd /usr/lib/systemd/systemd; do
  [ -x "$candidate" ] && { systemd="$candidate"; break; }
done
[ -n "$systemd" ] || { echo "systemd-namespace.sh: no systemd binary here" >&2; exit 3; }
[ "$(id -u)" -eq 0 ] || { echo "systemd-namespace.sh: needs root (unshare)" >&2; exit 3; }
command -v unshare >/dev/null || { echo "systemd-namespace.sh: unshare is not installed" >&2; exit 3; }

if [ "${CLARITY_NAMESPACE_INNER:-}" != 1 ]; then
  with_parent=()
  command -v setpriv >/dev/null && with_parent=(setpriv --pdeathsig KILL)
  exec ${with_parent[@]+"${with_parent[@]}"} env CLARITY_NAMESPACE_INNER=1 \
    unshare --fork --kill-child=SIGKILL --pid --mount --propagation private --mount-proc "$0" "$units"
fi

# PID 1 of the namespace from here on.
mount -t tmpfs -o mode=755 tmpfs /run
mkdir -p /run/systemd/system /run/systemd/journald.conf.d
for unit in systemd-tmpfiles-setup.service systemd-tmpfiles-setup-dev.service \
  systemd-tmpfiles-setup-dev-early.service systemd-tmpfiles-clean.service systemd-tmpfiles-clean.timer \
  sysinit.target basic.target; do
  ln -s /dev/null "/run/systemd/system/$unit"
done
printf '[Journal]\nStorage=volatile\n' >/run/systemd/journald.conf.d/clarity-test.conf
cat >/run/systemd/system/clarity-test.target <<'UNIT'
[Unit]
Description=clarityd under systemd (a test's namespace)
DefaultDependencies=no
Wants=systemd-journald.socket
UNIT
cp -R "$units"/. /run/systemd/system/
export container=clarity-test
exec "$systemd" --system --unit=clarity-test.target --log-target=journal --log-level=info --show-status=no
