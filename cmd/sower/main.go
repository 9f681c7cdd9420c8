// Command sower is a game-playing engine for Katro and Hoyito III.
//
// With no arguments it speaks the engine protocol on standard input and
// output (see docs/protocol.md); with a subcommand it works from the
// command line. Run "sower help" for the list.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
