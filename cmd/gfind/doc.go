// Command gfind is a fast parallel clone of GNU find 4.9.
//
// The pipeline, one package per stage:
//
//	argv ──► cmd/gfind ──► predicate.Parse ──► walker.Walk ──► visit ──► output.Sink ──► stdout
//	         leading        roots, expression   worker pool     Node.Eval   per-worker
//	         options        and walk options    openat+getdents (per worker) Buffers
//
// Files here:
//
//	main.go  run: wires the stages together and maps errors to exit status
//	args.go  splits GNU's leading options (-H -L -P -D -O) and gfind's own
//	         (--threads/-j, --help, --version) off the front of argv; only
//	         gfind's own go to kong, which must never see the expression
//	help.go  the --help and --version texts
package main
