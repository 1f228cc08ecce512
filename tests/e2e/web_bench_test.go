package e2e

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbemd/pbemd/pbem/populate"
	"github.com/pbemd/pbemd/tests/smtpsink"
	"github.com/pbemd/pbemd/tests/testenv"
)

// BenchmarkWebScale runs pbemd serve on a large store made by "pbemd
// populate" (its data directory in PBEMD_SCALE_DATA; serve writes to it:
// run it on a copy) and loads its web view with PBEMD_WEB_CLIENTS (8)
// clients at once, each request from one of 1,000 loopback addresses so
// that the per-address limit of the view (10 a second) does not refuse
// them, over every kind of page (webPages), the boards and players drawn
// among all the store's. PBEMD_SCALE_PLAYERS is the store's number of
// players (populate -players; default 300, as for -games 3000).
//
// It runs, each as a sub-benchmark: cold/mix, the kinds of pages in turn
// for PBEMD_WEB_MIX (20s) from the daemon's start; then each kind alone,
// PBEMD_WEB_REQUESTS (300) requests; then warm/mix as cold/mix. Each
// reports the latency at the client (p50, p99: the worst kind's in a mix),
// the daemon's CPU time per request (from /proc, all of the daemon's
// threads: what the request cost, whatever else the machine ran) and the
// daemon's largest anonymous memory meanwhile (RssAnon, read every 10
// ms: the heap and stacks, not the store's mapped file pages). A mix logs
// each kind's latencies. With PBEMD_WEB_PROFILE=DIR, the daemon's CPU
// profile of each mix and its heap profile after the warm one are
// written there (its pprof setting). Run with -benchtime=1x:
//
//	cp -r /tmp/pop100k /tmp/popcopy
//	PBEMD_SCALE_DATA=/tmp/popcopy PBEMD_SCALE_PLAYERS=10000 go test ./tests/e2e -run '^$' -bench WebScale -benchtime 1x
func BenchmarkWebScale(b *testing.B) {
	data := os.Getenv("PBEMD_SCALE_DATA")
	if data == "" {
		b.Skip("PBEMD_SCALE_DATA is not set: make a store with pbemd populate and point it at a copy")
	}
	players := envCount(b, "PBEMD_SCALE_PLAYERS", 300)
	clients := envCount(b, "PBEMD_WEB_CLIENTS", 8)
	requests := envCount(b, "PBEMD_WEB_REQUESTS", 300)
	mix := 20 * time.Second
	if v := os.Getenv("PBEMD_WEB_MIX"); v != "" {
		var err error
		if mix, err = time.ParseDuration(v); err != nil || mix < time.Second {
			b.Fatalf("PBEMD_WEB_MIX %q: want a duration of 1s or more", v)
		}
	}
	profiles := os.Getenv("PBEMD_WEB_PROFILE")

	sink, err := smtpsink.Start(smtpsink.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { sink.Close() })
	_, smtpPort, _ := net.SplitHostPort(sink.Addr)
	webAddr, metrics := testenv.FreeAddr(b), testenv.FreeAddr(b)
	config := filepath.Join(b.TempDir(), "pbemd.yaml")
	writeTestConfig(b, config, fmt.Sprintf("data: %s\nmetrics: %s\nhttp: %s\nlmtp: %s\npprof: true\n",
		filepath.Clean(data), metrics, webAddr, testenv.FreeAddr(b)), smtpPort, "")
	p := startPbemd(b, nil, "serve", "-config", config)
	load := newWebLoad(b, "http://"+webAddr, p.cmd.Process.Pid, clients, players)
	for start := time.Now(); ; time.Sleep(5 * time.Millisecond) {
		if _, err := load.get("/style.css"); err == nil {
			break
		}
		if time.Since(start) > time.Minute {
			b.Fatalf("the web view did not answer in a minute:\n%s", p.Output())
		}
	}

	runMix := func(name string) {
		b.Run(name, func(b *testing.B) {
			var wg sync.WaitGroup
			if profiles != "" {
				wg.Go(func() {
					pprofTo(b, metrics, fmt.Sprintf("profile?seconds=%d", int(mix.Seconds())), filepath.Join(profiles, "web-"+strings.ReplaceAll(name, "/", "-")+".cpu.prof"))
				})
			}
			r := load.run(b, webPages, 0, mix)
			wg.Wait()
			r.report(b)
			for _, k := range webPages {
				if t := r.times[k.name]; len(t) > 0 {
					b.Logf("%-14s %5d requests  p50 %6.2f ms  p99 %6.2f ms", k.name, len(t), ms(pct(t, 50)), ms(pct(t, 99)))
				}
			}
		})
	}
	runMix("cold/mix")
	for _, k := range webPages {
		b.Run("alone/"+k.name, func(b *testing.B) {
			load.run(b, []webPage{k}, requests, 0).report(b)
		})
	}
	runMix("warm/mix")
	if profiles != "" {
		pprofTo(b, metrics, "heap", filepath.Join(profiles, "web-heap.prof"))
	}
	p.stop()
}

// A webPage is a kind of page of the web view and the addresses of its
// pages: board (of the kind's boards) and player are drawn by the load.
type webPage struct {
	name string
	path func(kind string, board int, player string) string
}

// webPages are every kind of page, with a forged feed key and a board
// that does not exist among them, as a crawler meets them.
var webPages = []webPage{
	{"front", func(string, int, string) string { return "/" }},
	{"game", func(k string, _ int, _ string) string { return "/" + k + "/" }},
	{"game-older", func(k string, n int, _ string) string { return fmt.Sprintf("/%s/?before=%d", k, n) }},
	{"board", func(k string, n int, _ string) string { return fmt.Sprintf("/%s/%d", k, n) }},
	{"board-svg", func(k string, n int, _ string) string { return fmt.Sprintf("/%s/%d.svg", k, n) }},
	{"board-json", func(k string, n int, _ string) string { return fmt.Sprintf("/%s/%d.json", k, n) }},
	{"board-pgn", func(k string, n int, _ string) string { return fmt.Sprintf("/%s/%d.pgn", k, n) }},
	{"board-atom", func(k string, n int, _ string) string { return fmt.Sprintf("/%s/%d.atom", k, n) }},
	{"no-board", func(k string, n int, _ string) string { return fmt.Sprintf("/%s/%d", k, 900_000_000+n) }},
	{"standings", func(k string, _ int, _ string) string { return "/" + k + "/standings" }},
	// Pages 2 to 41 of four games: more than the view keeps at once.
	{"standings-deep", func(k string, n int, _ string) string { return fmt.Sprintf("/%s/standings?page=%d", k, 2+n%40) }},
	{"user", func(_ string, _ int, u string) string { return "/users/" + u }},
	{"todo-forged", func(_ string, _ int, u string) string { return "/users/" + u + "/todo.atom?key=forged" }},
	{"api-games", func(string, int, string) string { return "/api/v1/games" }},
	{"api-boards", func(k string, _ int, _ string) string { return "/api/v1/games/" + k + "/boards" }},
	{"api-board", func(k string, n int, _ string) string { return fmt.Sprintf("/api/v1/games/%s/boards/%d", k, n) }},
	{"api-standings", func(k string, _ int, _ string) string { return "/api/v1/games/" + k + "/standings" }},
	{"api-user", func(_ string, _ int, u string) string { return "/api/v1/users/" + u }},
	{"tournaments", func(string, int, string) string { return "/tournaments/" }},
}

// A webLoad sends requests to the daemon's web view from many loopback
// addresses and measures the daemon at pid.
type webLoad struct {
	base    string
	pid     int
	clients int
	players int
	boards  int            // boards of each kind
	via     []*http.Client // one for each source address
	next    atomic.Int64   // the source address of the next request
	mu      sync.Mutex     // guards rng
	rng     *rand.Rand     // draws boards and players
}

func newWebLoad(b *testing.B, base string, pid, clients, players int) *webLoad {
	l := &webLoad{base: base, pid: pid, clients: clients, players: players, boards: players * 10 / 4,
		rng: rand.New(rand.NewPCG(3, 4))}
	// 1,000 addresses: at 10,000 requests a second each stays within
	// the view's limit of 10 a second (a quiet machine served some 2,600
	// a second, past what 250 addresses kept under it).
	for i := range 1000 {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, byte(1+i/250), byte(1+i%250))}}
		l.via = append(l.via, &http.Client{Transport: &http.Transport{
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				return d.DialContext(ctx, network, addr)
			},
			MaxIdleConnsPerHost: clients,
			DisableCompression:  true,
		}})
	}
	b.Cleanup(func() {
		for _, c := range l.via {
			c.CloseIdleConnections()
		}
	})
	return l
}

// get fetches path from the next source address and returns its status.
func (l *webLoad) get(path string) (int, error) {
	c := l.via[int(l.next.Add(1))%len(l.via)]
	resp, err := c.Get(l.base + path)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0, err
	}
	return resp.StatusCode, nil
}

// draw is the address of a page of kind k for a board and player drawn
// among the store's.
func (l *webLoad) draw(k webPage) string {
	l.mu.Lock()
	kind := kinds[l.rng.IntN(len(kinds))]
	board := 101 + l.rng.IntN(l.boards)
	player := populate.PlayerID(l.rng.IntN(l.players))
	l.mu.Unlock()
	return k.path(kind, board, player)
}

// A webRun is what one run of the load measured.
type webRun struct {
	times    map[string][]time.Duration // by kind of page
	requests int
	cpu      time.Duration // the daemon's
	anonPeak int64
}

// run sends n requests of the pages (the kinds in turn), or as many as
// the clients send in d, and measures the daemon meanwhile. A server
// error or a refusal for the rate fails the benchmark: the first is a
// fault, the second a load that measures the limiter, not the pages.
func (l *webLoad) run(b *testing.B, pages []webPage, n int, d time.Duration) *webRun {
	r := &webRun{times: map[string][]time.Duration{}}
	var mu sync.Mutex
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			_, anon := residentMemory(l.pid)
			mu.Lock()
			r.anonPeak = max(r.anonPeak, anon)
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	var sent atomic.Int64
	deadline := time.Now().Add(d)
	cpu0 := processCPU(b, l.pid)
	b.ResetTimer()
	var wg sync.WaitGroup
	for range l.clients {
		wg.Go(func() {
			for {
				i := int(sent.Add(1)) - 1
				if n > 0 && i >= n || n == 0 && time.Now().After(deadline) {
					return
				}
				k := pages[i%len(pages)]
				path := l.draw(k)
				t0 := time.Now()
				code, err := l.get(path)
				took := time.Since(t0)
				if err != nil || code >= 500 || code == http.StatusTooManyRequests {
					b.Errorf("GET %s: %d %v", path, code, err)
					return
				}
				mu.Lock()
				r.times[k.name] = append(r.times[k.name], took)
				r.requests++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	r.cpu = processCPU(b, l.pid) - cpu0
	close(stop)
	<-sampled
	return r
}

// report reports the run's latencies (the worst kind's p99), its CPU
// time per request and its anonymous memory peak.
func (r *webRun) report(b *testing.B) {
	var all []time.Duration
	var worst time.Duration
	for _, t := range r.times {
		all = append(all, t...)
		worst = max(worst, pct(t, 99))
	}
	if len(all) == 0 {
		b.Fatal("no request answered")
	}
	b.ReportMetric(float64(r.requests), "requests")
	b.ReportMetric(ms(pct(all, 50)), "p50-ms")
	b.ReportMetric(ms(pct(all, 99)), "p99-ms")
	b.ReportMetric(ms(worst), "worst-kind-p99-ms")
	b.ReportMetric(float64(r.cpu.Microseconds())/float64(r.requests), "cpu-µs/req")
	b.ReportMetric(float64(r.anonPeak)/(1<<20), "anon-peak-MiB")
}

// pct is the p-th percentile of times (which it sorts).
func pct(times []time.Duration, p int) time.Duration {
	slices.Sort(times)
	return times[(len(times)-1)*p/100]
}

// processCPU is the CPU time (user and system, every thread) process pid
// has used so far, from /proc in clock ticks of 10 ms.
func processCPU(b *testing.B, pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	// The command's name, in parentheses, may hold spaces: count the
	// fields after it. utime and stime are fields 14 and 15.
	_, rest, _ := strings.Cut(string(stat), ") ")
	f := strings.Fields(rest)
	if len(f) < 13 {
		b.Fatalf("/proc/%d/stat: %q has too few fields", pid, stat)
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// pprofTo writes the daemon's profile (the address under /debug/pprof/
// on the metrics listener at addr, as "heap" or "profile?seconds=20") to
// file.
func pprofTo(b *testing.B, addr, profile, file string) {
	var resp *http.Response
	for start := time.Now(); ; time.Sleep(5 * time.Millisecond) {
		var err error
		if resp, err = http.Get("http://" + addr + "/debug/pprof/" + profile); err == nil {
			break
		}
		if time.Since(start) > time.Minute {
			b.Errorf("profile: %v", err)
			return
		}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s: %s", resp.Status, data)
	}
	if err == nil {
		err = os.WriteFile(file, data, 0o644)
	}
	if err != nil {
		b.Errorf("profile %s: %v", profile, err)
	}
}
