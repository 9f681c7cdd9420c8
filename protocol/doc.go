// Package protocol implements Sower's engine protocol: a UCI-style line
// protocol on standard input and output (see docs/protocol.md).
package protocol
