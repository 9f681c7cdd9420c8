package gui_test

import (
	"fmt"
	"net"
	"net/http/httptest"

	"github.com/sower-engine/sower/gui"
)

// A server answers only requests that name it: a page fetched through
// another host name (DNS rebinding) is refused.
func ExampleServer_ServeHTTP() {
	srv, err := gui.New(gui.Config{Engines: []gui.Engine{{Name: "sower", Command: []string{"sower"}}}})
	if err != nil {
		panic(err)
	}
	srv.Allow(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, "127.0.0.1:8080")
	for _, host := range []string{"127.0.0.1:8080", "localhost:8080", "attacker.example:8080"} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = host
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		fmt.Println(host, w.Code)
	}
	// Output:
	// 127.0.0.1:8080 200
	// localhost:8080 200
	// attacker.example:8080 403
}
