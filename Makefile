# gfind's build, install and release, with the conventions of GNU
# packages and bfs: PREFIX, DESTDIR and the directory variables below
# may be set on the command line.
#
#   make                  build ./gfind (BIN: elsewhere)
#   make install          install gfind, its man page and its bash, zsh
#                         and fish completions under $(DESTDIR)$(PREFIX)
#   make uninstall        remove what install installed
#   make release          build dist/: for every platform a .tar.gz of
#                         the binary, the man page, the completions,
#                         README.md and LICENSE; .debs for Linux amd64
#                         and arm64; SHA256SUMS of them all
#   make clean            remove ./gfind, gfind.flags and dist/
#
# VERSION, when set (a release: make release VERSION=1.2.0), is stamped
# into the binary (gfind --version) and the man page; by default it is
# the git tag the tree is at, if any (v1.2.0 gives 1.2.0). Without one,
# gfind --version shows the module version Go derives from the commit.
#
# The build is static (CGO_ENABLED=0): it starts in about 0.6 of the
# cgo build's time, within 1.2x of GNU find's in a UTF-8 locale
# (bench/startup.sh; bench/NOTES.md, "Start-up and the release build"),
# and reaches the name service's other sources (LDAP, SSSD) through
# getent(1). CGO_ENABLED=1 on the command line makes the cgo build,
# which asks the C library.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
BASHDIR ?= $(DATADIR)/bash-completion/completions
ZSHDIR ?= $(DATADIR)/zsh/site-functions
FISHDIR ?= $(DATADIR)/fish/vendor_completions.d
DESTDIR ?=

GO ?= go
CGO_ENABLED ?= 0
VERSION ?= $(shell git describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null | sed 's/^v//')
# -buildvcs=auto: the commit goes into the binary when git and the
# clone are at hand, whatever GOFLAGS says; -trimpath: no build paths.
GOBUILD = CGO_ENABLED=$(CGO_ENABLED) $(GO) build -trimpath -buildvcs=auto \
	-ldflags '-s -w$(if $(VERSION), -X main.version=$(VERSION))'

# The platforms of the release (README.md, "Platforms"), and the Linux
# ones that get a .deb (as Debian names their architectures).
PLATFORMS = linux/amd64 linux/arm64 linux/386 linux/arm linux/riscv64 \
	linux/s390x linux/mips64le darwin/amd64 darwin/arm64 freebsd/amd64 \
	freebsd/arm64 openbsd/amd64 openbsd/arm64 netbsd/amd64 netbsd/arm64
DEB_ARCHES = amd64 arm64

# What installs where; the man page and completions are sources, not
# built.
MAN = cmd/gfind/gfind.1
BASH = cmd/gfind/completion/gfind.bash
ZSH = cmd/gfind/completion/gfind.zsh
FISH = cmd/gfind/completion/gfind.fish

# BIN is where the build puts the binary (release.sh builds each
# platform's elsewhere; GOOS and GOARCH, from the environment or the
# command line, pass through to go build).
BIN ?= gfind

.PHONY: all build install uninstall release clean FORCE

all: build

build: $(BIN)

# Rebuilt when a source file, or the build's flags and target, changed
# since: so that "make && sudo make install" does not need go on root's
# PATH. The flags are kept in $(BIN).flags, rewritten only when they
# differ.
GOSRC := $(shell find cmd internal output predicate walker -name '*.go' ! -name '*_test.go') go.mod go.sum
BUILDINFO = $(GOBUILD) GOOS=$(GOOS) GOARCH=$(GOARCH)
$(BIN): $(GOSRC) $(BIN).flags
	$(GOBUILD) -o '$(BIN)' ./cmd/gfind
$(BIN).flags: FORCE
	@mkdir -p '$(dir $@)'
	@echo "$(BUILDINFO)" | cmp -s - '$@' || echo "$(BUILDINFO)" > '$@'

# The man page's footer gets the version: VERSION, or else the one the
# binary, built for this machine then, reports.
install: build
	install -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)/man1' \
		'$(DESTDIR)$(BASHDIR)' '$(DESTDIR)$(ZSHDIR)' '$(DESTDIR)$(FISHDIR)'
	install -m 755 '$(BIN)' '$(DESTDIR)$(BINDIR)/gfind'
	v='$(VERSION)'; [ -n "$$v" ] || v=$$('$(abspath $(BIN))' --version | sed -n '1s/^gfind //p'); \
		sed -e "/^\.TH /s/\"gfind[^\"]*\"/\"gfind $$v\"/" $(MAN) > '$(DESTDIR)$(MANDIR)/man1/gfind.1'
	chmod 644 '$(DESTDIR)$(MANDIR)/man1/gfind.1'
	install -m 644 $(BASH) '$(DESTDIR)$(BASHDIR)/gfind'
	install -m 644 $(ZSH) '$(DESTDIR)$(ZSHDIR)/_gfind'
	install -m 644 $(FISH) '$(DESTDIR)$(FISHDIR)/gfind.fish'

uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/gfind' '$(DESTDIR)$(MANDIR)/man1/gfind.1' \
		'$(DESTDIR)$(BASHDIR)/gfind' '$(DESTDIR)$(ZSHDIR)/_gfind' \
		'$(DESTDIR)$(FISHDIR)/gfind.fish'

# DIST: where release puts what it builds.
DIST ?= dist

release:
	VERSION='$(VERSION)' PLATFORMS='$(PLATFORMS)' DEB_ARCHES='$(DEB_ARCHES)' \
		MAKE='$(MAKE)' ./release.sh '$(DIST)'

clean:
	rm -rf gfind gfind.flags dist
