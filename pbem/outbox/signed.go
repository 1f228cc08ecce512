package outbox

import "context"

// Signed is a transport that signs each mail (DKIM) before its Transport
// sends it: each recipient's copy, as it leaves, so that a key rotated
// meanwhile signs the mail that waited in the outbox too.
type Signed struct {
	Transport
	Sign func(data []byte) ([]byte, error)
}

// Send signs data and sends it. A mail that cannot be signed is not sent
// unsigned: the failure is the transport's, and the mail waits.
func (s Signed) Send(ctx context.Context, from string, to []string, data []byte) error {
	signed, err := s.Sign(data)
	if err != nil {
		return err
	}
	return s.Transport.Send(ctx, from, to, signed)
}
