// Command gfind is a fast parallel clone of GNU find 4.11.
//
// The pipeline, one package per stage:
//
//	argv ──► cmd/gfind ──► predicate.Parse ──► walker.Walk ──► visit ──► output.Sink ──► stdout
//	         leading        roots, expression   worker pool     Node.Eval   per-worker
//	         options        and walk options    openat+getdents (per worker) Buffers
//
// Files here:
//
//	main.go  run: argv → config (splitArgs, predicate.Parse) → a
//	         predicate.Run → exit status; the process's own parts (the
//	         Sink on stdout, signals, the status line) are set up here
//	signal.go  dies of SIGINT, SIGTERM and SIGHUP cleanly, once it matters
//	args.go  splits GNU's leading options (-H -L -P -D -O) and gfind's own
//	         off the front of argv; gfind's own are the cli struct, whose
//	         kong model is their one list, and only they go to kong, which
//	         must never see the expression
//	help.go  the --help and --version texts: the expression groups from
//	         predicate's parse table, the options from kong's model
//	stats.go --stats: the workers' counts, which they also publish for
//	status.go  -status and --progress, the live status line on a
//	         terminal stderr, sampled and drawn ten times a second
//	gendoc_test.go  go generate: the options' parts of gfind.1 and the
//	         completion scripts, from kong's model; TestGenerated checks
//	         they are current
package main
