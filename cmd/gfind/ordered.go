package main

import (
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/predicate"
)

// orderedOut captures the workers' output for the sorted walk
// (walker.Options.Ordered): each worker's Buffer holds the output of the
// visits it makes ahead of the walk's order, and the walk hands it back,
// in order, to out.
type orderedOut struct {
	states []*predicate.State
	out    *output.Buffer
}

func (o *orderedOut) Hold(worker int, buf []byte) { o.states[worker].Out.Hold(buf) }
func (o *orderedOut) Held(worker int) int         { return o.states[worker].Out.Len() }
func (o *orderedOut) Release(worker int) []byte   { return o.states[worker].Out.Release() }

// Write writes p, whole records, through out: a 64 KiB block at a time,
// as a worker's Buffer does.
func (o *orderedOut) Write(p []byte) {
	if len(p) == 0 {
		return
	}
	o.out.Write(p)
	o.out.EndRecord()
}
