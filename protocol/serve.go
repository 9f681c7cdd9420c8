package protocol

import (
	"context"
	"errors"
	"io"
)

// Version is Sower's version, reported by "uci" and "sower --version".
const Version = "0.1.0"

// Serve speaks the protocol: it reads commands from in and writes responses
// to out until "quit" or the end of input.
func Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	return errors.New("the protocol is not built yet")
}
