package web

import (
	"bytes"
	"sync"
	"time"
)

// How long a cached page is served, and how many are kept.
const (
	cacheFor  = 5 * time.Second
	maxCached = 64
)

// A pageCache keeps the pages that read the most and are the same for
// every reader for a few seconds: the front page (the newest boards of
// every game) and the standings (each of fifty players' record and
// indexes). A reader sees them at most cacheFor late.
type pageCache struct {
	mu    sync.Mutex
	pages map[string]cachedPage
}

type cachedPage struct {
	at   time.Time
	page page
}

// get returns the page cached under key, or the one build makes, kept
// until cacheFor after now. A page is served from the cache only while
// the clock has moved on since it was made: a stopped clock (a test's)
// never serves one. An error is not kept.
func (c *pageCache) get(key string, now time.Time, build func() (page, error)) (page, error) {
	c.mu.Lock()
	p, ok := c.pages[key]
	c.mu.Unlock()
	if ok && now.After(p.at) && now.Sub(p.at) < cacheFor {
		return p.page, nil
	}
	made, err := build()
	if err != nil {
		return page{}, err
	}
	// The cached page outlives the request: it must not be a pooled buffer.
	p = cachedPage{at: now, page: page{body: bytes.Clone(made.body), ctype: made.ctype, filename: made.filename}}
	putBuffer(made.buf)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pages == nil {
		c.pages = map[string]cachedPage{}
	}
	if len(c.pages) >= maxCached {
		// Forget what has run out; when nothing has, all of it,
		// rather than grow.
		for k, old := range c.pages {
			if !(now.After(old.at) && now.Sub(old.at) < cacheFor) {
				delete(c.pages, k)
			}
		}
		if len(c.pages) >= maxCached {
			clear(c.pages)
		}
	}
	c.pages[key] = p
	return p.page, nil
}
