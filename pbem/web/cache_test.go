package web

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A cached page is served as it is until cacheFor has passed, then while
// a new one is made until staleFor, and never by a stopped clock; a
// failure is not kept.
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
		{cacheFor, "page 2"}, // served while page 3 is made
		{cacheFor + time.Second, "page 3"},
		{cacheFor + staleFor, "page 4"}, // page 3 is too old to serve
		{cacheFor + staleFor + time.Second, "page 4"},
	}
	for _, s := range steps {
		p, err := c.get("/tanbo/standings?page=1", at.Add(s.after), newPage)
		if err != nil || string(p.body) != s.want {
			t.Fatalf("at +%v: %q, %v; want %q", s.after, p.body, err, s.want)
		}
		c.settle()
	}
	if p, _ := c.get("/ultima/standings?page=1", at.Add(time.Second), newPage); string(p.body) != "page 5" {
		t.Errorf("another address got %q; want a page of its own", p.body)
	}
	fail := errors.New("the store is gone")
	if _, err := c.get("front", at, func() (page, error) { return page{}, fail }); err != fail {
		t.Errorf("a failure came back as %v", err)
	}
	if p, _ := c.get("front", at.Add(time.Second), newPage); string(p.body) != "page 6" {
		t.Errorf("after a failure the page is %q; want a new one", p.body)
	}
	// A page made for later readers that panics is an error kept by none.
	c.get("front", at.Add(time.Second+cacheFor), func() (page, error) { panic("a bug") })
	c.settle()
	if p, _ := c.get("front", at.Add(2*time.Second+cacheFor), newPage); string(p.body) != "page 6" {
		t.Errorf("after a panic making it the page is %q; want the last one made", p.body)
	}
}

// settle waits until no page is being made.
func (c *pageCache) settle() {
	for {
		c.mu.Lock()
		var b *building
		for _, b = range c.building {
			break
		}
		c.mu.Unlock()
		if b == nil {
			return
		}
		<-b.done
	}
}

// Readers that find no page wait for the one being made, rather than each
// making it again.
func TestPageCacheMakesAPageOnce(t *testing.T) {
	var c pageCache
	var made atomic.Int32
	release := make(chan struct{})
	slow := func() (page, error) {
		made.Add(1)
		<-release
		return page{body: []byte("front")}, nil
	}
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if p, err := c.get("front", at, slow); err != nil || string(p.body) != "front" {
				t.Errorf("a reader got %q, %v", p.body, err)
			}
		})
	}
	for {
		c.mu.Lock()
		b := c.building["front"]
		c.mu.Unlock()
		if b != nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // the readers come to wait
	close(release)
	wg.Wait()
	if n := made.Load(); n >= 8 {
		t.Errorf("8 readers at once made the page %d times; want those that came while it was made to wait for it", n)
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
