// Package spawn starts the children of find's -exec family. It stands
// below predicate, which parses -exec, -execdir, -ok and -okdir and
// decides what runs when; spawn runs it:
//
//   - Run starts one child at a time for the whole process, as GNU find,
//     whose evaluation is serial, does: execvp's path search and its
//     shell fallback, the -ok question and its answer, the directory an
//     -execdir child runs in.
//   - Interrupt stops the running child, and every later one, when gfind
//     is killed (cmd/gfind's signal handler calls it).
//   - A Builder builds the command lines of -exec ... +: as many files in
//     each as the kernel takes, one line shared by every worker or one
//     per directory, retried with fewer files when execve refuses a line
//     for its size.
//
// spawn knows neither the expression nor gfind's output streams: Run's
// caller quiets its own output through the hold function it gives, and
// reports the *Error values Run hands it in its own words.
package spawn
