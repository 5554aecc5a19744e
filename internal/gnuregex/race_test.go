//go:build race

package gnuregex

// The race detector makes sync.Pool drop items at random, so pooled
// scratch buffers are allocated again now and then.
func init() { raceEnabled = true }
