#!/usr/bin/env bash
# Makes (once) a small Debian unstable root holding Godot 4, which Debian 12 does not package, and
# prints its path. Idempotent: a root that already has Godot is reused, so CI pays for it once.
# Run Godot with: chroot "$ROOT" godot --headless --path /tmp/<project copied under $ROOT/tmp>
set -euo pipefail
ROOT="${GODOT4_ROOT:-/var/cache/howl/godot4-root}"

# Test files run side by side may call this at once: one makes the root while the others wait for it.
mkdir -p "$(dirname "$ROOT")"
exec 9>"$ROOT.lock"
flock 9

if [ ! -x "$ROOT/usr/bin/godot" ]; then
  if ! command -v debootstrap >/dev/null; then
    apt-get -o DPkg::Lock::Timeout=300 install -y -qq debootstrap >&2
  fi
  # A half-made root from an interrupted run is started over.
  rm -rf "$ROOT"
  mkdir -p "$ROOT"
  debootstrap --variant=minbase sid "$ROOT" http://deb.debian.org/debian >&2
  mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
  chroot "$ROOT" bash -c 'apt-get -o Acquire::Check-Valid-Until=false update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends godot ca-certificates' >&2
fi
mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
# Godot needs a writable home for user:// and its editor settings.
mkdir -p "$ROOT/root" "$ROOT/tmp"
# The root shares the host's network, and so its names: http://localhost:<port>, the address npm start prints.
cp /etc/hosts "$ROOT/etc/hosts"
echo "$ROOT"
