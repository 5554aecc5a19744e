// Package testtool finds the outside programs that tests run (GNU find,
// zsh, fish, groff, python3, ...) and decides what a missing one means.
//
// Off CI a missing program skips the test with a message that names the
// Debian package to install, so that the README's test command passes on
// a machine with only what the image has. Under CI (CI=true, which the CI
// runner sets and .ci/run relies on) a missing program fails the test:
// .ci/run installs every program listed here, so a skip there would hide a
// test that never ran.
package testtool
