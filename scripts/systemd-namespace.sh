#!/usr/bin/env bash
# Boots a systemd system manager as PID 1 of a new PID and mount namespace, for running
# config/clarityd.service under a real systemd on a machine whose own init is not systemd (a
# container, a CI runner): ServiceManagerTests.theUnitUnderASystemdInANamespace does.
#
#   scripts/systemd-namespace.sh --check          exit 0 when a namespace can boot here, else 3
#                                                 saying why (the test's probe)
#   scripts/systemd-namespace.sh UNIT_DIR CGROUP  boot one, its systemd in cgroup CGROUP
#   scripts/systemd-namespace.sh --remove CGROUP  remove CGROUP once that systemd has ended
#
# Root only (unshare). Inside the namespace /run is a private tmpfs, the units in UNIT_DIR are
# installed as runtime units, journald keeps its journal in /run only, and the boot-time units
# that clean or set up the machine (systemd-tmpfiles-*, which empties /tmp) are masked: only
# clarity-test.target and what the test starts run. Nothing outside the namespace is changed but
# the cgroup CGROUP, made beside this script's own cgroup: the namespace shares the machine's
# cgroup file system, and a systemd takes its own cgroup as the root of its tree. Two namespaces
# booted in one cgroup (two test runs at once) shared `init.scope` and every unit's cgroup, so
# each one's `systemctl kill` and `stop` reached the other's daemon ("Input/output error"); so
# each run names a CGROUP of its own.
# Reach it with `nsenter -t <PID of its systemd> -m -p systemctl …`: the one child of the
# `unshare` this script becomes. It ends when killed, and when the process that started it dies
# (a test run that crashed once left its systemd and unit running, and every later run's
# `systemctl kill` then failed with EIO on the shared cgroups): `setpriv --pdeathsig` kills
# `unshare` with its parent, and `--kill-child` the namespace with it.
set -euo pipefail

# This process's cgroup in the hierarchy a systemd takes its root from ("ID:CONTROLLERS:PATH"
# in /proc/self/cgroup): the named `systemd` one (cgroup v1 and hybrid), else the unified one.
own_cgroup() {
  local controllers path unified=""
  while IFS=: read -r _ controllers path; do
    case "$controllers" in
      name=systemd) echo "${path%/}"; return ;;
      "") unified="${path%/}" ;;
    esac
  done </proc/self/cgroup
  echo "$unified"
}

# Where each cgroup hierarchy is mounted, and whether a systemd keeps its tree there (`systemd`:
# the named hierarchy or the unified one) or only a controller's (`controller`).
hierarchies() {
  local mounted type options
  while read -r _ mounted type options _; do
    case "$type,$options" in
      cgroup2,* | cgroup,*name=systemd*) echo "systemd $mounted" ;;
      cgroup,*) echo "controller $mounted" ;;
    esac
  done </proc/self/mounts
}

# Removes cgroup $1 (made beside this process's own) deepest first, from every hierarchy: a
# systemd makes a unit's cgroup at the same path in each controller's hierarchy. A cgroup with
# a process left in it is not removed (rmdir refuses: EBUSY).
remove_cgroup() {
  local own kind mounted
  own="$(own_cgroup)"
  while read -r kind mounted; do
    [ -d "$mounted$own/$1" ] || continue
    find "$mounted$own/$1" -depth -type d -exec rmdir {} + 2>/dev/null || true
  done < <(hierarchies)
}

# Why no namespace can boot here, or nothing.
obstacle() {
  local systemd=""
  for candidate in /lib/systemd/systemd /usr/lib/systemd/systemd; do
    [ -x "$candidate" ] && { systemd="$candidate"; break; }
  done
  [ -n "$systemd" ] || { echo "no systemd binary here"; return; }
  [ "$EUID" -eq 0 ] || { echo "needs root (unshare)"; return; }
  local tool
  for tool in unshare nsenter; do
    command -v "$tool" >/dev/null || { echo "$tool is not installed"; return; }
  done
  unshare --fork --pid --mount --propagation private --mount-proc true 2>/dev/null \
    || { echo "unshare cannot make a PID and mount namespace here"; return; }
  local own kind mounted found="" probe="clarity-probe-$$"
  own="$(own_cgroup)"
  while read -r kind mounted; do
    [ "$kind" = systemd ] || continue
    found=yes
    mkdir "$mounted$own/$probe" 2>/dev/null || { echo "cannot make a cgroup in $mounted$own"; return; }
    rmdir "$mounted$own/$probe"
  done < <(hierarchies)
  [ -n "$found" ] || echo "no systemd or unified cgroup hierarchy is mounted"
}

case "${1:-}" in
  --check)
    reason="$(obstacle)"
    [ -z "$reason" ] || { echo "systemd-namespace.sh: $reason" >&2; exit 3; }
    exit 0
    ;;
  --remove)
    remove_cgroup "${2:?usage: systemd-namespace.sh --remove CGROUP}"
    exit 0
    ;;
esac

units="${1:?usage: systemd-namespace.sh UNIT_DIR CGROUP}"
systemd=/lib/systemd/systemd
[ -x "$systemd" ] || systemd=/usr/lib/systemd/systemd

if [ "${CLARITY_NAMESPACE_INNER:-}" != 1 ]; then
  cgroup="${2:?usage: systemd-namespace.sh UNIT_DIR CGROUP}"
  reason="$(obstacle)"
  [ -z "$reason" ] || { echo "systemd-namespace.sh: $reason" >&2; exit 3; }
  case "$cgroup" in */* | . | ..) echo "systemd-namespace.sh: CGROUP is a name, not a path: $cgroup" >&2; exit 2 ;; esac
  own="$(own_cgroup)"
  while read -r kind mounted; do
    [ "$kind" = systemd ] || continue
    mkdir "$mounted$own/$cgroup"
    echo $$ >"$mounted$own/$cgroup/cgroup.procs"
  done < <(hierarchies)
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
