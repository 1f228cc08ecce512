package mailmsg

import (
	"errors"
	"fmt"
)

// Limits bound what reading one mail may cost, whoever sent it. A zero
// field means its default, so the zero Limits is the default set:
//
//	MaxMailBytes     10 MiB   the whole mail, header and body
//	MaxHeaderBytes  128 KiB   the header (as Postfix's header_size_limit)
//	MaxHeaderFields    1000   header fields, and header lines of all body parts
//	MaxMIMEDepth         12   nesting of multipart bodies descended into
//	MaxMIMEParts        100   body parts looked at
//	MaxTextBytes    256 KiB   text kept from the body
//	MaxQuoteDepth        10   quote levels kept from HTML blockquotes
//
// A mail over MaxMailBytes, MaxHeaderBytes or MaxHeaderFields is refused:
// ReadMail returns a *TooLargeError and the header fields it did read, so
// that the caller can answer the sender. The other limits cut silently:
// parts beyond MaxMIMEParts or MaxMIMEDepth are not read, nor is the rest
// of a body after MaxHeaderFields header lines of its parts, text beyond
// MaxTextBytes is dropped at a line end, deeper quotes stay at
// MaxQuoteDepth.
type Limits struct {
	MaxMailBytes    int64
	MaxHeaderBytes  int
	MaxHeaderFields int
	MaxMIMEDepth    int
	MaxMIMEParts    int
	MaxTextBytes    int
	MaxQuoteDepth   int
}

// WithDefaults returns l with every zero field set to its default, for a
// transport that must know the largest mail before it reads one.
func (l Limits) WithDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	if l.MaxMailBytes <= 0 {
		l.MaxMailBytes = 10 << 20
	}
	def(&l.MaxHeaderBytes, 128<<10)
	def(&l.MaxHeaderFields, 1000)
	def(&l.MaxMIMEDepth, 12)
	def(&l.MaxMIMEParts, 100)
	def(&l.MaxTextBytes, 256<<10)
	def(&l.MaxQuoteDepth, 10)
	return l
}

// ErrTooLarge is the error a TooLargeError matches with errors.Is.
var ErrTooLarge = errors.New("mail too large")

// TooLargeError says which bound a refused mail broke.
type TooLargeError struct {
	What  string // "mail", "header" or "header fields"
	Size  int64  // bytes, or fields for "header fields"; at least Limit+1
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.What == "header fields" {
		return fmt.Sprintf("the header has more than %d fields; a header may have at most %d", e.Limit, e.Limit)
	}
	return fmt.Sprintf("the %s is %s; a %s may be at most %s", e.What, byteSize(e.Size), e.What, byteSize(e.Limit))
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// byteSize spells a size for people: "10 MiB", "128 KiB", "1500 bytes".
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
