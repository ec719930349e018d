package web

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"

	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/gzhttp/writer"
	"github.com/klauspost/compress/gzhttp/writer/gzkp"
	"github.com/klauspost/compress/gzip"
	"github.com/labstack/echo/v4"
)

// compress gzips pages and assets for the browsers that take it; a live
// stream must flush as it goes, and the API's answers are too small to
// gain from it.
//
// Stateless: no compressor is held from one piece to the next, as a
// stateful one at level 6 held for each request (~800 KB from its first
// byte to its last) made the heap reach serve's memory limit at 32 tables
// and the collector run back to back (issue 39). But gzhttp hands a page
// over in two writes (the 1,024 bytes it held back, then the rest), and a
// stateless writer compresses each on its own, so a few writers kept for
// good (keptGzip) gather a page first and compress it in one piece: ~10%
// fewer instructions and 2% fewer bytes for the 700-deal table page, for
// 32 KB kept per writer. A kept level-1 writer would do as well in
// instructions but keeps ~820 KB, and its tables, cold between pages, made
// it no faster on the real page (BenchmarkGzipPage, BenchmarkTablePage).
// When all kept writers are busy, a page is gzipped as before.
func compress(writers int) (echo.MiddlewareFunc, error) {
	kept := newKeptGzip(writers)
	wrap, err := gzhttp.NewWrapper(gzhttp.CompressionLevel(gzip.StatelessCompression), gzhttp.EnableZstd(false),
		gzhttp.Implementation(writer.GzipWriterFactory{Levels: gzkp.Levels, New: kept.lend}))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if strings.HasSuffix(c.Path(), "/live") || strings.HasPrefix(c.Request().URL.Path, "/api/") {
				return next(c)
			}
			res := c.Response()
			plain := res.Writer
			defer func() { res.Writer = plain }()
			var err error
			wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				res.Writer = w
				c.SetRequest(r)
				err = next(c)
			})).ServeHTTP(plain, c.Request())
			// An error is answered once this returns (observe), by the
			// writer the response had: uncompressed, as nothing was
			// written yet (or, if something was, not at all).
			return err
		}
	}, nil
}

// keptGzip is a fixed set of stateless gzip writers, each behind a
// buffer that gathers a page before it is compressed, made once and kept
// for the server's life, lent to one response at a time.
type keptGzip chan *gatheringGzip

// keptWriters is how many writers a server keeps: one per core Go runs
// on, as more cannot compress at once, and at most 4.
func keptWriters() int { return min(runtime.GOMAXPROCS(0), 4) }

// gatherBytes is what a kept writer gathers before compressing: the
// largest piece the stateless compressor takes in one block.
const gatherBytes = 32<<10 - 1

func newKeptGzip(n int) keptGzip {
	k := make(keptGzip, n)
	for range n {
		zw, _ := gzip.NewWriterLevel(nil, gzip.StatelessCompression) // only a bad level fails
		k <- &gatheringGzip{Writer: bufio.NewWriterSize(zw, gatherBytes), zw: zw, home: k}
	}
	return k
}

// lend gives w a kept writer if one is free, else a stateless one that
// compresses each write on its own.
func (k keptGzip) lend(w io.Writer, _ int) writer.GzipWriter {
	select {
	case g := <-k:
		g.zw.Reset(w)
		return g
	default:
		return gzkp.NewWriter(w, gzip.StatelessCompression)
	}
}

// gatheringGzip compresses what is written in pieces of up to
// gatherBytes: a page smaller than that in one, however it was written.
type gatheringGzip struct {
	*bufio.Writer // in front of zw
	zw            *gzip.Writer
	home          keptGzip
}

// Flush compresses and sends what was gathered so far.
func (g *gatheringGzip) Flush() error {
	if err := g.Writer.Flush(); err != nil {
		return err
	}
	return g.zw.Flush()
}

// Close ends the response's gzip stream and gives the writer back.
func (g *gatheringGzip) Close() error {
	err := errors.Join(g.Writer.Flush(), g.zw.Close())
	g.Reset(g.zw)   // drops what a failed write left
	g.zw.Reset(nil) // holds no response once back
	g.home <- g     // never blocks: only writers taken from home come back
	return err
}
