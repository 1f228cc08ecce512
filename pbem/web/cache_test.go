package web

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// A cached page is served until cacheFor has passed, and never by a
// stopped clock; a failure is not kept.
func TestPageCacheKeepsAFewSeconds(t *testing.T) {
	var c pageCache
	made := 0
	newPage := func() (page, error) {
		made++
		return page{body: []byte(fmt.Sprint("page ", made)), ctype: "text/plain"}, nil
	}
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	steps := []struct {
		after time.Duration
		want  string
	}{
		{0, "page 1"},
		{0, "page 2"}, // the clock has not moved: a test's store may have
		{time.Second, "page 2"},
		{cacheFor - time.Millisecond, "page 2"},
		{cacheFor, "page 3"},
		{cacheFor + time.Second, "page 3"},
	}
	for _, s := range steps {
		p, err := c.get("/tanbo/standings?page=1", at.Add(s.after), newPage)
		if err != nil || string(p.body) != s.want {
			t.Fatalf("at +%v: %q, %v; want %q", s.after, p.body, err, s.want)
		}
	}
	if p, _ := c.get("/ultima/standings?page=1", at.Add(time.Second), newPage); string(p.body) != "page 4" {
		t.Errorf("another address got %q; want a page of its own", p.body)
	}
	fail := errors.New("the store is gone")
	if _, err := c.get("front", at, func() (page, error) { return page{}, fail }); err != fail {
		t.Errorf("a failure came back as %v", err)
	}
	if p, _ := c.get("front", at.Add(time.Second), newPage); string(p.body) != "page 5" {
		t.Errorf("after a failure the page is %q; want a new one", p.body)
	}
}

// A crawler asking for every page of the standings, and more, holds no
// more than maxCached pages in memory.
func TestPageCacheBounded(t *testing.T) {
	var c pageCache
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for i := range 10 * maxCached {
		c.get(fmt.Sprintf("/tanbo/standings?page=%d", i), at.Add(time.Duration(i)*time.Millisecond), func() (page, error) {
			return page{body: make([]byte, 1000)}, nil
		})
		if len(c.pages) > maxCached {
			t.Fatalf("after %d pages the cache holds %d; want at most %d", i+1, len(c.pages), maxCached)
		}
	}
}
