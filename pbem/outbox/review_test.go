package outbox

import (
	"context"
	"net"
	"testing"

	"github.com/pbemd/pbemd/tests/smtpsink"
)

// The configuration (config.IsLoopback) accepts any spelling of
// "localhost" for a plaintext server, as host names are case-insensitive;
// the transport must then not refuse what the start-up check let through.
func TestPlainPasswordToLocalhostAnyCase(t *testing.T) {
	sink := startSink(t, smtpsink.Options{Username: "pbem", Password: "secret"})
	_, port, _ := net.SplitHostPort(sink.Addr)
	for _, host := range []string{"localhost", "LocalHost"} {
		tr := &SMTP{Addr: net.JoinHostPort(host, port), Security: Plain, Username: "pbem", Password: "secret"}
		if err := tr.Send(context.Background(), "pbem@localhost", []string{"p1@localhost"}, []byte("Subject: reply 1\r\n\r\nx\r\n")); err != nil {
			t.Errorf("%s: %v", host, err)
		}
		tr.Close()
	}
}
