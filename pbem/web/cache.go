package web

import (
	"bytes"
	"fmt"
	"sync"
	"time"
)

// How long a cached page is served as it is, how long more it is served
// while a new one is made, and how many are kept.
const (
	cacheFor  = 5 * time.Second
	staleFor  = 2 * cacheFor
	maxCached = 64
)

// A pageCache keeps the pages that read the most and are the same for
// every reader for a few seconds: the front page (the newest boards of
// every game) and the standings (each of fifty players' record and
// indexes). A reader sees them at most staleFor late, and waits for a
// page to be made only when none was made in that time: past cacheFor the
// old page is still served while one request's goroutine makes the new
// one, so that the page's readers do not all wait for it in turn (at a
// million games the front page takes a tenth of a second to make). One
// page is made at a time for each key; the readers that need it wait for
// that one.
type pageCache struct {
	mu       sync.Mutex
	pages    map[string]cachedPage
	building map[string]*building
}

type cachedPage struct {
	at   time.Time
	page page
}

// building is a page being made, for the readers that wait for it.
type building struct {
	done chan struct{} // closed once made
	page page
	err  error
}

// get returns the page cached under key, or the one build makes, kept
// from now on. A page is served from the cache only while the clock has
// moved on since it was made: a stopped clock (a test's) never serves
// one. An error is not kept.
func (c *pageCache) get(key string, now time.Time, build func() (page, error)) (page, error) {
	c.mu.Lock()
	if p, ok := c.pages[key]; ok && now.After(p.at) && now.Sub(p.at) < staleFor {
		if now.Sub(p.at) >= cacheFor && c.building[key] == nil {
			b := c.begin(key)
			go c.make(key, now, build, b)
		}
		c.mu.Unlock()
		return p.page, nil
	}
	b := c.building[key]
	if b == nil {
		b = c.begin(key)
		c.mu.Unlock()
		c.make(key, now, build, b)
	} else {
		c.mu.Unlock()
		<-b.done
	}
	return b.page, b.err
}

// begin marks the page under key as being made; c.mu is held.
func (c *pageCache) begin(key string) *building {
	if c.building == nil {
		c.building = map[string]*building{}
	}
	b := &building{done: make(chan struct{})}
	c.building[key] = b
	return b
}

// make makes the page under key with build, keeps it as made at now and
// tells the readers waiting for it. A panic of build is its error: a page
// made for later readers runs on a goroutine of its own.
func (c *pageCache) make(key string, now time.Time, build func() (page, error), b *building) {
	var made page
	var err error
	func() {
		defer func() {
			if v := recover(); v != nil {
				err = fmt.Errorf("making the page %s: %v", key, v)
			}
		}()
		made, err = build()
	}()
	var p cachedPage
	if err == nil {
		// The cached page outlives the request: it must not be a pooled buffer.
		p = cachedPage{at: now, page: page{body: bytes.Clone(made.body), ctype: made.ctype, filename: made.filename}}
		putBuffer(made.buf)
	}
	c.mu.Lock()
	if err == nil {
		c.keep(key, now, p)
	}
	delete(c.building, key)
	b.page, b.err = p.page, err
	c.mu.Unlock()
	close(b.done)
}

// keep stores p under key, forgetting what has run out first when the
// cache is full; c.mu is held.
func (c *pageCache) keep(key string, now time.Time, p cachedPage) {
	if c.pages == nil {
		c.pages = map[string]cachedPage{}
	}
	if len(c.pages) >= maxCached {
		// Forget what has run out; when nothing has, all of it,
		// rather than grow.
		for k, old := range c.pages {
			if !(now.After(old.at) && now.Sub(old.at) < staleFor) {
				delete(c.pages, k)
			}
		}
		if len(c.pages) >= maxCached {
			clear(c.pages)
		}
	}
	c.pages[key] = p
}
