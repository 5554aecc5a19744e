package main

import (
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/predicate"
)

// orderedOut captures the workers' output for the sorted walk
// (walker.Options.Ordered): a worker's Buffer holds the output of the
// visits it makes ahead of the output's order, and the walk writes it,
// in order, to the Sink.
type orderedOut struct {
	states []*predicate.State
	sink   *output.Sink
}

func (o *orderedOut) Hold(worker int, buf []byte) { o.states[worker].Out.Hold(buf) }
func (o *orderedOut) Held(worker int) int         { return o.states[worker].Out.Len() }
func (o *orderedOut) Release(worker int) []byte   { return o.states[worker].Out.Release() }
func (o *orderedOut) Flush(worker int)            { o.states[worker].Out.Flush() }
func (o *orderedOut) Write(p []byte)              { o.sink.WriteRecords(p) }
