package main

import "os"

func main() {
	os.Exit(run(os.Args[1:]))
}

// run is gfind with arguments args (without the program name), writing
// to os.Stdout and os.Stderr; it returns the exit status.
func run(args []string) int {
	os.Stderr.WriteString("gfind: not implemented\n")
	return 1
}
