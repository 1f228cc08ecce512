package web

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/pbemd/pbemd/pbem"
)

// One-click unsubscribe (RFC 8058): the List-Unsubscribe of a board's mail
// to a watcher links to /unsubscribe/TOKEN, and the mail client posts
// "List-Unsubscribe=One-Click" to it. The POST is the one thing the web
// view changes; the token alone says what it acts on (its address and
// board, under an HMAC the service checks), so it needs no login, and it
// counts against the client's requests as every page does. A GET, which a
// link checker or a player's browser sends, changes nothing: it shows a
// button that posts.

// An Unsubscriber acts on a one-click token: pbem.Service.Unsubscribe.
// It returns what it did, or with ok false why it did nothing.
type Unsubscriber func(token string) (text string, ok bool, err error)

const (
	unsubscribePath = "/unsubscribe/"
	// maxUnsubscribeURI bounds the path of a link: the service's bound
	// on its token, after the path's prefix.
	maxUnsubscribeURI = len(unsubscribePath) + pbem.MaxUnsubscribeToken
	// maxUnsubscribeBody bounds the POST's form: it holds one field.
	maxUnsubscribeBody = 1 << 10
)

// WithUnsubscribe has s answer the one-click unsubscribe links through
// fn, and returns s.
func (s *Server) WithUnsubscribe(fn Unsubscriber) *Server {
	s.unsub = fn
	return s
}

// unsubscribe answers a request for an unsubscribe link, and reports
// false for any other request.
func (s *Server) unsubscribe(w http.ResponseWriter, r *http.Request) bool {
	token, ok := strings.CutPrefix(r.URL.Path, unsubscribePath)
	if !ok || s.unsub == nil {
		return false
	}
	h := w.Header()
	switch {
	case r.Method != http.MethodPost && r.Method != http.MethodGet && r.Method != http.MethodHead:
		h.Set("Allow", "GET, HEAD, POST")
		s.fail(w, r, http.StatusMethodNotAllowed, "An unsubscribe link takes a POST, as a mail client's one click sends it, or a GET for its button.")
	case len(r.URL.EscapedPath())+len(r.URL.RawQuery) > maxUnsubscribeURI:
		s.fail(w, r, http.StatusRequestURITooLong, "The address is too long for an unsubscribe link; copy the link from the mail whole.")
	case !s.limiter.allow(clientKey(r)):
		h.Set("Retry-After", "1")
		s.fail(w, r, http.StatusTooManyRequests, "Too many requests from your address; wait a moment and try again.")
	case r.Method != http.MethodPost:
		s.unsubscribeButton(w, token)
	default:
		r.Body = http.MaxBytesReader(w, r.Body, maxUnsubscribeBody)
		if err := r.ParseForm(); err != nil || r.PostForm.Get("List-Unsubscribe") != "One-Click" {
			s.fail(w, r, http.StatusBadRequest, "An unsubscribe POST carries the form field List-Unsubscribe=One-Click (RFC 8058); this one did not.")
			return true
		}
		text, ok, err := s.unsub(token)
		switch {
		case err != nil:
			s.opts.Log.Error("unsubscribe failed", "err", err)
			s.fail(w, r, http.StatusInternalServerError, "Something went wrong on our side; nothing was changed. Try again later.")
		case !ok:
			s.fail(w, r, http.StatusBadRequest, text)
		default:
			s.unsubscribePage(w, http.StatusOK, unsubscribeView{chrome: s.chrome("Unsubscribed"), Text: text})
		}
	}
	return true
}

// unsubscribeView is what the unsubscribe pages show, in the site's frame.
type unsubscribeView struct {
	chrome
	Text, Action string
}

// unsubscribeButton is the page of a GET: it asks, and changes nothing.
func (s *Server) unsubscribeButton(w http.ResponseWriter, token string) {
	// The form posts to this same link: the one form the site has.
	w.Header().Set("Content-Security-Policy", strings.Replace(securityHeaders["Content-Security-Policy"], "form-action 'none'", "form-action 'self'", 1))
	s.unsubscribePage(w, http.StatusOK, unsubscribeView{
		chrome: s.chrome("Unsubscribe from a board"),
		Text:   "Stop the mail of this board to the address this link was sent to?",
		Action: unsubscribePath + token,
	})
}

func (s *Server) unsubscribePage(w http.ResponseWriter, status int, v unsubscribeView) {
	var b bytes.Buffer
	if err := s.render(&b, "unsubscribe", v); err != nil {
		s.opts.Log.Error("unsubscribe page", "err", err)
	}
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}
