#!/usr/bin/env bash
# release.sh DIR: gfind's release, built into DIR (make release runs it;
# its variables come from the Makefile):
#
#   gfind-VERSION-OS-ARCH.tar.gz   one per platform of PLATFORMS: a tree
#       to unpack into a prefix (tar -xzf F -C /usr/local
#       --strip-components=1): bin/gfind, share/man/man1/gfind.1, the
#       bash, zsh and fish completions where those shells look under
#       the prefix, and share/doc/gfind/README.md and LICENSE;
#   gfind_DEBVERSION_ARCH.deb      one per DEB_ARCHES: the same files in
#       Debian's paths (/usr, the man page compressed, zsh's
#       vendor-completions), with the copyright file Debian wants;
#   SHA256SUMS                     of all of them (sha256sum -c).
#
# Runs on Linux with GNU tar, sha256sum and dpkg-deb (Debian's dpkg).
# Every file is made by make install (into a staging DESTDIR), so that
# the archives, the packages and a source install hold the same files.
# VERSION empty (no release tag): 0.0.0-dev.COMMIT, .dirty for a tree
# with changes. Archives are reproducible: sorted names, owner root,
# times of the commit, gzip without a name or time.
set -euo pipefail
cd "$(dirname "$0")"
dist=${1:?usage: release.sh DIR}
MAKE=${MAKE:-make}
: "${PLATFORMS:?} ${DEB_ARCHES:?}"

version=${VERSION:-}
if [ -z "$version" ]; then
  version=0.0.0-dev.$(git rev-parse --short=12 HEAD)
  [ -z "$(git status --porcelain)" ] || version+=.dirty
fi
# A Debian version has no "-" but the one before the revision.
debversion=${version//-/\~}
epoch=$(git log -1 --format=%ct 2>/dev/null || echo 0)

mkdir -p "$dist"
dist=$(cd "$dist" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# stage OS ARCH DESTDIR MAKEVAR...: builds for OS/ARCH and installs
# into DESTDIR with the directory variables given.
stage() {
  local os=$1 arch=$2 dest=$3
  shift 3
  GOOS=$os GOARCH=$arch "$MAKE" -s install VERSION="$version" \
    BIN="$work/gfind-$os-$arch" DESTDIR="$dest" "$@"
}

# tarball DIR FILE: FILE.tar.gz of DIR, whose name is the top folder.
tarball() {
  tar -C "$(dirname "$1")" --sort=name --owner=0 --group=0 --numeric-owner \
    --mtime="@$epoch" -cf - "$(basename "$1")" | gzip -9n >"$2"
}

for p in $PLATFORMS; do
  os=${p%/*} arch=${p#*/}
  name=gfind-$version-$os-$arch
  top=$work/$name
  stage "$os" "$arch" "$top" PREFIX=
  install -d "$top/share/doc/gfind"
  install -m 644 README.md LICENSE "$top/share/doc/gfind/"
  tarball "$top" "$dist/$name.tar.gz"
  echo "$dist/$name.tar.gz"
done

for arch in $DEB_ARCHES; do
  root=$work/deb-$arch
  stage linux "$arch" "$root" PREFIX=/usr ZSHDIR=/usr/share/zsh/vendor-completions
  gzip -9n "$root/usr/share/man/man1/gfind.1"
  install -d "$root/usr/share/doc/gfind" "$root/DEBIAN"
  install -m 644 README.md "$root/usr/share/doc/gfind/"
  {
    echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    echo "Upstream-Name: gfind"
    echo
    echo "Files: *"
    echo "License: MIT"
    sed 's/^$/./; s/^/ /' LICENSE
  } >"$root/usr/share/doc/gfind/copyright"
  chmod 644 "$root/usr/share/doc/gfind/copyright"
  cat >"$root/DEBIAN/control" <<EOF
Package: gfind
Version: $debversion
Architecture: $arch
Maintainer: the gfind authors <gfind@users.noreply.github.com>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Section: utils
Priority: optional
Homepage: https://github.com/gfind/gfind
Description: fast parallel clone of GNU find
 gfind searches directory trees as GNU find does, with the same
 expression language, output, messages and exit status, reading
 directories in parallel. It installs as gfind, beside find.
EOF
  find "$root" -exec touch -h -d "@$epoch" {} +
  deb=$dist/gfind_${debversion}_$arch.deb
  SOURCE_DATE_EPOCH=$epoch dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
  echo "$deb"
done

(cd "$dist" && sha256sum -- *.tar.gz *.deb >SHA256SUMS)
echo "$dist/SHA256SUMS"
