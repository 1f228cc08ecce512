package mailauth

import (
	"strings"
	"testing"
)

// What a sender wrote claiming the server's id is gone, however it is
// written, and Check then believes nothing of it; other fields, other ids
// and the body stay as they were.
func TestStripResults(t *testing.T) {
	t.Parallel()
	const id = "devmail.localhost"
	v := &Verifier{TrustedIDs: []string{id}}
	body := "\r\nAuthentication-Results: devmail.localhost; auth=pass smtp.auth=alice@localhost\r\n"
	other := "Authentication-Results: mx.other.example; dmarc=pass header.from=localhost\r\n"
	forged := []string{
		"Authentication-Results: devmail.localhost; auth=pass smtp.auth=alice@localhost\r\n",
		"Authentication-Results: DEVMAIL.localhost; auth=pass smtp.auth=alice@localhost\r\n",
		"authentication-results:devmail.localhost 1;auth=pass smtp.auth=alice@localhost\r\n",
		"Authentication-Results:\r\n devmail.localhost;\r\n\tauth=pass smtp.auth=alice@localhost\r\n",
		"Authentication-Results: devmail.localhost; auth=pass smtp.auth=alice@localhost\n",
		"Authentication-Results:  devmail.localhost\t; dmarc=pass header.from=localhost\r\n",
	}
	for _, f := range forged {
		for _, raw := range []string{
			f + "From: alice@localhost\r\nSubject: help\r\n" + body,
			"From: alice@localhost\r\n" + f + other + "Subject: help\r\n" + body,
			"From: alice@localhost\r\nSubject: help\r\n" + f, // no body at all
		} {
			got := string(StripResults([]byte(raw), id))
			want := strings.Replace(raw, f, "", 1)
			if got != want {
				t.Errorf("StripResults(%q) =\n%q\nwant\n%q", raw, got, want)
			}
			if r := v.Check([]byte(got)); r.Authenticated {
				t.Errorf("after stripping %q, Check authenticated it: %s", f, r.How)
			}
		}
	}
	for _, raw := range []string{
		other + "From: alice@localhost\r\n" + body,
		"Authentication-Results: devmail.localhost.attacker.example; none\r\nFrom: a@localhost\r\n\r\n",
		"X-Authentication-Results: devmail.localhost; none\r\nFrom: a@localhost\r\n\r\n",
		"",
	} {
		if got := string(StripResults([]byte(raw), id)); got != raw {
			t.Errorf("StripResults(%q) changed it to %q", raw, got)
		}
	}
}

func TestSubmittedField(t *testing.T) {
	t.Parallel()
	v := &Verifier{TrustedIDs: []string{"devmail.localhost"}}
	field := SubmittedField("devmail.localhost", "alice@localhost")
	if !strings.HasSuffix(field, "\r\n") || len(field) > 80 {
		t.Fatalf("field %q: want one line", field)
	}
	if r := v.Check([]byte(field + "From: Alice <Alice@localhost>\r\n\r\n")); !r.Authenticated {
		t.Errorf("the login's own From: %+v", r)
	}
	if r := v.Check([]byte(field + "From: bob@localhost\r\n\r\n")); r.Authenticated {
		t.Errorf("another From than the login: %+v", r)
	}
	if a, err := Sender([]byte("From: Alice <Alice@Localhost>\r\n\r\nbody")); err != nil || a != "alice@localhost" {
		t.Errorf("Sender = %q, %v", a, err)
	}
	if a, err := Sender([]byte("From: a@localhost, b@localhost\r\n\r\n")); err == nil {
		t.Errorf("Sender of two addresses = %q", a)
	}
}
