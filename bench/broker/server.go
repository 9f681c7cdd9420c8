package broker

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// ServerOptions configure an embedded broker.
type ServerOptions struct {
	// Listen is HOST:PORT; port 0 picks a free one.
	Listen string
	// Dir is where JetStream keeps the streams (they survive a restart).
	Dir string
	// Token, if set, is the secret every client must give
	// ("nats://TOKEN@host:port").
	Token string
	// ConfigFile, if set, is a nats-server configuration file (users,
	// NKeys or accounts, TLS); Listen, Dir and Token override it.
	ConfigFile string
}

// Server is a running embedded broker.
type Server struct {
	s       *server.Server
	secured bool
}

// secured reports whether the options make clients prove who they are:
// a token, or users, NKeys or operators in the configuration file.
func secured(o *server.Options) bool {
	return o.Authorization != "" || o.Username != "" || len(o.Users) > 0 || len(o.Nkeys) > 0 || len(o.TrustedOperators) > 0
}

// Serve starts an embedded NATS server with JetStream storing in o.Dir. It
// listens on a loopback address unless clients must authenticate: a
// server open to strangers would run whatever they upload.
func Serve(o ServerOptions) (*Server, error) {
	opts := &server.Options{}
	if o.ConfigFile != "" {
		var err error
		if opts, err = server.ProcessConfigFile(o.ConfigFile); err != nil {
			return nil, fmt.Errorf("the server configuration %s: %v", o.ConfigFile, err)
		}
	}
	if o.Dir == "" {
		return nil, errors.New("no directory for the broker's streams")
	}
	host, portText, err := net.SplitHostPort(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %v", o.Listen, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("listen address %q: bad port", o.Listen)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	opts.Host, opts.Port = host, port
	opts.JetStream, opts.StoreDir = true, o.Dir
	opts.NoSigs, opts.NoLog = true, true
	opts.ServerName = "sower-broker"
	if o.Token != "" {
		opts.Authorization = o.Token
	}
	if !secured(opts) && !IsLoopback(host) {
		return nil, fmt.Errorf("listen address %s is not a loopback address and clients need no token or credentials: give --token (or users in --config)", o.Listen)
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("starting the broker: %v", err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("the broker did not start listening on %s", o.Listen)
	}
	return &Server{s: s, secured: secured(opts)}, nil
}

// IsLoopback reports whether host names the loopback interface only.
func IsLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Addr returns the address the server listens on.
func (s *Server) Addr() string { return s.s.Addr().String() }

// Secured reports whether clients must authenticate.
func (s *Server) Secured() bool { return s.secured }

// URL returns the server's client URL (without any token).
func (s *Server) URL() string { return "nats://" + s.Addr() }

// Close stops the server; the streams stay in its directory.
func (s *Server) Close() {
	s.s.Shutdown()
	s.s.WaitForShutdown()
}
