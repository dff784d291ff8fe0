package explorer

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"
)

// assetFiles holds the page code, styles and the vendored swagger-ui.
//
//go:embed assets/*.js assets/*.css assets/*.svg assets/vendor/swagger-ui/*.js assets/vendor/swagger-ui/*.css
var assetFiles embed.FS

// Cache-Control values: hashed asset names never change content, so a
// browser keeps an asset for a year without asking again (every request,
// revalidations included, spends the client's hourly budget); pages are
// revalidated with their ETag on every load.
const (
	cacheImmutable  = "public, max-age=31536000, immutable"
	cacheRevalidate = "no-cache"
)

// hashLen is the number of hex digits of the content hash in asset names.
const hashLen = 12

// asset is one embedded file served under a content-hashed name.
type asset struct {
	name  string // path below assets/, e.g. "app.js"
	url   string // e.g. "/assets/app.0123456789ab.js"
	ctype string
	body  encoded
}

// assetSet indexes the embedded assets by name and by URL.
type assetSet struct {
	byName map[string]*asset
	byURL  map[string]*asset
}

// loadAssets reads the embedded assets and names each by its content hash.
func loadAssets() (*assetSet, error) {
	set := &assetSet{byName: map[string]*asset{}, byURL: map[string]*asset{}}
	err := fs.WalkDir(assetFiles, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := assetFiles.ReadFile(p)
		if err != nil {
			return err
		}
		name := strings.TrimPrefix(p, "assets/")
		ctype, ok := contentType(name)
		if !ok {
			return fmt.Errorf("asset %s: unknown content type", name)
		}
		a := &asset{name: name, ctype: ctype, body: newEncoded(data)}
		ext := path.Ext(name)
		a.url = PathAssets + strings.TrimSuffix(name, ext) + "." + a.body.hash[:hashLen] + ext
		set.byName[name] = a
		set.byURL[a.url] = a
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("explorer assets: %w", err)
	}
	return set, nil
}

// url returns the hashed URL of the named asset.
func (s *assetSet) url(name string) (string, error) {
	a, ok := s.byName[name]
	if !ok {
		return "", fmt.Errorf("no asset %q", name)
	}
	return a.url, nil
}

// contentType returns the media type of an asset file name.
func contentType(name string) (string, bool) {
	switch path.Ext(name) {
	case ".js":
		return "text/javascript; charset=utf-8", true
	case ".css":
		return "text/css; charset=utf-8", true
	case ".svg":
		return "image/svg+xml", true
	}
	return "", false
}

// serveAsset serves GET /assets/<name>.<hash>.<ext>: the embedded files
// under their hashed names, cached as immutable, gzip-encoded for clients
// that accept it. Other paths get the server's JSON 404.
func (e *Explorer) serveAsset(c *fiber.Ctx) error {
	a, ok := e.assets.byURL[string(c.Request().URI().Path())]
	if !ok {
		return fiber.ErrNotFound
	}
	setSecurityHeaders(c)
	a.body.serve(c, a.ctype, cacheImmutable)
	return nil
}

// encoded is a response body with its gzip encoding, made on first use,
// and its content hash.
type encoded struct {
	raw  []byte
	hash string // hex SHA-256 of raw
	gz   func() []byte
}

func newEncoded(raw []byte) encoded {
	sum := sha256.Sum256(raw)
	return encoded{raw: raw, hash: hex.EncodeToString(sum[:]), gz: sync.OnceValue(func() []byte { return gzipBytes(raw) })}
}

// gzipBytes compresses b at the best ratio; it returns nil when that does
// not make it smaller.
func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // a valid level never fails
	_, _ = zw.Write(b)                                       // writes to a bytes.Buffer never fail
	_ = zw.Close()
	if buf.Len() >= len(b) {
		return nil
	}
	return buf.Bytes()
}

// etags returns the entity tags of the identity and gzip representations.
func (b encoded) etags() (identity, gz string) {
	tag := b.hash[:2*hashLen]
	return `"` + tag + `"`, `"` + tag + `-gz"`
}

// serve writes the body with its validators, answering a matching
// If-None-Match with 304 and choosing gzip when the client accepts it. For
// HEAD, the server sends the headers of the body without it.
func (b encoded) serve(c *fiber.Ctx, ctype, cacheControl string) {
	c.Set(fiber.HeaderVary, fiber.HeaderAcceptEncoding)
	c.Set(fiber.HeaderCacheControl, cacheControl)
	idTag, gzTag := b.etags()
	body, tag := b.raw, idTag
	gzip := false
	if acceptsGzip(headerValues(c, fiber.HeaderAcceptEncoding)) {
		if gz := b.gz(); gz != nil {
			body, tag, gzip = gz, gzTag, true
		}
	}
	c.Set("Etag", tag) // net/http's spelling, as the explorer has always sent it
	if etagMatches(headerValues(c, fiber.HeaderIfNoneMatch), idTag, gzTag) {
		c.Status(http.StatusNotModified)
		return
	}
	if gzip {
		c.Set(fiber.HeaderContentEncoding, "gzip")
	}
	c.Response().Header.SetContentType(ctype)
	c.Response().SetBodyRaw(body)
}

// headerValues returns every value of a request header.
func headerValues(c *fiber.Ctx, name string) []string {
	var out []string
	for _, v := range c.Request().Header.PeekAll(name) {
		out = append(out, string(v))
	}
	return out
}

// acceptsGzip reports whether Accept-Encoding header values accept gzip:
// "gzip" or "*" listed without q=0.
func acceptsGzip(values []string) bool {
	for _, v := range values {
		for item := range strings.SplitSeq(v, ",") {
			coding, params, _ := strings.Cut(item, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding != "gzip" && coding != "x-gzip" && coding != "*" {
				continue
			}
			if qualityPositive(params) {
				return true
			}
		}
	}
	return false
}

// qualityPositive reports whether the parameters of one Accept-Encoding
// item leave its quality above zero.
func qualityPositive(params string) bool {
	for p := range strings.SplitSeq(params, ";") {
		k, v, ok := strings.Cut(p, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		return err == nil && q > 0
	}
	return true
}

// etagMatches reports whether If-None-Match header values name one of
// tags (weak comparison) or are "*".
func etagMatches(values []string, tags ...string) bool {
	for _, v := range values {
		for item := range strings.SplitSeq(v, ",") {
			item = strings.TrimPrefix(strings.TrimSpace(item), "W/")
			if item == "*" || slices.Contains(tags, item) {
				return true
			}
		}
	}
	return false
}
