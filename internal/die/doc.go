// Package die ends the process the way a signal's default action does,
// so that the parent's wait status says "killed by" that signal (status
// 128+n in a shell), as it would of GNU find.
//
// In the pipeline it is the last step of two ways out: output's Sink
// dies of SIGPIPE on a write into a closed pipe other than standard
// output (the Go runtime ignores that one), and cmd/gfind, once its
// SIGINT, SIGTERM or SIGHUP handler has stopped the child and the
// output, dies of the signal it caught.
package die
