// Package config reads the API server's configuration from environment
// variables in one place, fills in defaults and validates every value, so a
// misconfigured server refuses to start with a message that names the
// variable and says what to change.
package config

import (
	"bufio"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Defaults of the settings.
const (
	DefaultHost             = "127.0.0.1"
	DefaultPort             = 8080
	DefaultCatalogPath      = "build/catalog.snapshot"
	DefaultBackend          = BackendMemory
	DefaultPublicAPIKey     = "ps_public_demo_key"
	DefaultRateLimitPerHour = 50
	DefaultMaxCandidates    = 2000
	DefaultReloadInterval   = 2 * time.Second
	DefaultShutdownTimeout  = 10 * time.Second
	DefaultMetricsAddr      = "127.0.0.1:9464"
)

// MetricsOff is the METRICS_ADDR value that disables the metrics listener
// (an empty value does too).
const MetricsOff = "off"

// BackendMemory is the embedded in-process search engine.
const BackendMemory = "memory"

// BackendElasticsearch queries an Elasticsearch cluster (ELASTICSEARCH_*).
const BackendElasticsearch = "elasticsearch"

// backends lists the SEARCH_BACKEND values this build can serve.
var backends = [...]string{BackendMemory, BackendElasticsearch}

// Key lengths accepted for API keys.
const (
	minKeyLen = 8
	maxKeyLen = 256
)

// Config is the complete configuration of the API server.
type Config struct {
	// Addr is HOST:PORT the server listens on.
	Addr string
	// CatalogPath is the catalog snapshot the memory backend serves.
	CatalogPath string
	// SearchBackend names the engine: "memory".
	SearchBackend string
	// RedisURL, when set, shares rate-limit counters between replicas.
	RedisURL string
	// PublicAPIKey is the shared key accepted out of the box; empty disables it.
	PublicAPIKey string
	// APIKeys maps production keys to their hourly request budget.
	APIKeys map[string]int
	// RateLimitPerHour is the per-client-IP hourly budget.
	RateLimitPerHour int
	// TrustedProxies are the peers whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
	// LogLevel is the minimum level of the JSON log.
	LogLevel slog.Level
	// MaxCandidates bounds the candidates checked against constraints.
	MaxCandidates int
	// ReloadInterval is how often the snapshot file is polled for changes;
	// zero disables polling (SIGHUP still reloads).
	ReloadInterval time.Duration
	// ShutdownTimeout bounds the wait for in-flight requests on shutdown.
	ShutdownTimeout time.Duration
	// MetricsAddr is host:port of the operators' Prometheus listener
	// (GET /metrics, no key, not rate limited); empty when it is off.
	MetricsAddr string
	// OTLPEndpoint is OTEL_EXPORTER_OTLP_ENDPOINT; when set, traces and
	// metrics are also exported over OTLP/HTTP.
	OTLPEndpoint string
	// TracesSampler is OTEL_TRACES_SAMPLER; when empty the server traces
	// 5% of requests (and every request whose caller samples it).
	TracesSampler string
}

// Variables lists every environment variable the server reads, with its
// meaning and default, in the order they are documented.
func Variables() [][3]string {
	return [][3]string{
		{"HOST", "interface to listen on (0.0.0.0 in a container)", DefaultHost},
		{"PORT", "TCP port to listen on", strconv.Itoa(DefaultPort)},
		{"CATALOG_PATH", "catalog snapshot served by the memory backend", DefaultCatalogPath},
		{"SEARCH_BACKEND", "search engine: " + strings.Join(backends[:], ", "), DefaultBackend},
		{"ELASTICSEARCH_URL", "comma-separated nodes, with SEARCH_BACKEND=elasticsearch", "(unset)"},
		{"ELASTICSEARCH_INDEX", "alias the indexer publishes to", "products"},
		{"ELASTICSEARCH_API_KEY", "API key (or ELASTICSEARCH_USERNAME and ELASTICSEARCH_PASSWORD)", "(unset)"},
		{"ELASTICSEARCH_CA_FILE", "PEM file of the cluster's certificate authority", "(unset: system roots)"},
		{"ELASTICSEARCH_TIMEOUT", "query timeout (Go duration)", "2s"},
		{"REDIS_URL", "redis://host:port/db shared by replicas for rate limits", "(unset: in-process limiter)"},
		{"PUBLIC_API_KEY", "shared public key; set it empty to disable it", DefaultPublicAPIKey},
		{"API_KEYS", "production keys with hourly budgets: key1=1000,key2=5000", "(unset)"},
		{"API_KEYS_FILE", "file with one key=budget per line, # comments", "(unset)"},
		{"RATE_LIMIT_PER_HOUR", "requests per hour per client IP", strconv.Itoa(DefaultRateLimitPerHour)},
		{"TRUSTED_PROXIES", "comma-separated CIDRs or IPs whose X-Forwarded-For is trusted", "(unset: none)"},
		{"LOG_LEVEL", "debug, info, warn or error", "info"},
		{"MAX_CANDIDATES", "candidates checked when constraints apply", strconv.Itoa(DefaultMaxCandidates)},
		{"RELOAD_INTERVAL", "snapshot poll interval (Go duration, 0 disables)", DefaultReloadInterval.String()},
		{"SHUTDOWN_TIMEOUT", "wait for in-flight requests on SIGTERM (Go duration)", DefaultShutdownTimeout.String()},
		{"METRICS_ADDR", "host:port of the operators' Prometheus GET /metrics (no key, not rate limited); empty or off disables it", DefaultMetricsAddr},
		{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTLP/HTTP collector for traces and metrics", "(unset: METRICS_ADDR only, no tracing)"},
		{"OTEL_TRACES_SAMPLER", "standard OpenTelemetry sampler (with OTEL_TRACES_SAMPLER_ARG)", "5% of requests, parent-based"},
	}
}

// Load reads the configuration through lookup (os.LookupEnv in production)
// and validates it. Every problem found is reported, one per line.
func Load(lookup func(string) (string, bool)) (Config, error) {
	get := func(name string) (string, bool) {
		v, ok := lookup(name)
		return strings.TrimSpace(v), ok
	}
	var errs []error
	bad := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...)))
	}
	c := Config{
		CatalogPath:      DefaultCatalogPath,
		SearchBackend:    DefaultBackend,
		PublicAPIKey:     DefaultPublicAPIKey,
		RateLimitPerHour: DefaultRateLimitPerHour,
		LogLevel:         slog.LevelInfo,
		MaxCandidates:    DefaultMaxCandidates,
		ReloadInterval:   DefaultReloadInterval,
		ShutdownTimeout:  DefaultShutdownTimeout,
		MetricsAddr:      DefaultMetricsAddr,
	}

	host := DefaultHost
	if v, ok := get("HOST"); ok && v != "" {
		if strings.ContainsAny(v, " /") {
			bad("HOST", "%q is not a host name or IP address", v)
		}
		host = strings.Trim(v, "[]")
	}
	port := DefaultPort
	if v, ok := get("PORT"); ok && v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 65535 {
			bad("PORT", "%q is not a port number (0-65535; 0 picks a free port)", v)
		} else {
			port = n
		}
	}
	c.Addr = net.JoinHostPort(host, strconv.Itoa(port))

	if v, ok := get("CATALOG_PATH"); ok && v != "" {
		c.CatalogPath = v
	}
	if v, ok := get("SEARCH_BACKEND"); ok && v != "" {
		if !slices.Contains(backends[:], v) {
			bad("SEARCH_BACKEND", "%q is not supported by this build; valid values: %s", v, strings.Join(backends[:], ", "))
		}
		c.SearchBackend = v
	}
	if v, ok := get("REDIS_URL"); ok && v != "" {
		if _, err := redis.ParseURL(v); err != nil {
			bad("REDIS_URL", "cannot parse it (want redis://host:port/db): %v", err)
		}
		c.RedisURL = v
	}
	if v, ok := get("PUBLIC_API_KEY"); ok {
		if v != "" {
			if err := checkKey(v); err != nil {
				bad("PUBLIC_API_KEY", "%v", err)
			}
		}
		c.PublicAPIKey = v
	}

	c.APIKeys = map[string]int{}
	if v, ok := get("API_KEYS"); ok && v != "" {
		keys, err := ParseKeys(strings.ReplaceAll(v, ",", "\n"))
		if err != nil {
			bad("API_KEYS", "%v", err)
		}
		merge(c.APIKeys, keys, "API_KEYS", bad)
	}
	if v, ok := get("API_KEYS_FILE"); ok && v != "" {
		data, err := os.ReadFile(v)
		if err != nil {
			bad("API_KEYS_FILE", "%v", err)
		} else {
			keys, err := ParseKeys(string(data))
			if err != nil {
				bad("API_KEYS_FILE", "%s: %v", v, err)
			}
			merge(c.APIKeys, keys, "API_KEYS_FILE", bad)
		}
	}
	if _, dup := c.APIKeys[c.PublicAPIKey]; dup && c.PublicAPIKey != "" {
		bad("API_KEYS", "the public key is also listed as a production key; give production keys their own values")
	}

	if v, ok := get("RATE_LIMIT_PER_HOUR"); ok && v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			bad("RATE_LIMIT_PER_HOUR", "%q is not a positive whole number", v)
		} else {
			c.RateLimitPerHour = n
		}
	}
	if v, ok := get("TRUSTED_PROXIES"); ok && v != "" {
		p, err := ParsePrefixes(v)
		if err != nil {
			bad("TRUSTED_PROXIES", "%v", err)
		}
		c.TrustedProxies = p
	}
	if v, ok := get("LOG_LEVEL"); ok && v != "" {
		if err := c.LogLevel.UnmarshalText([]byte(v)); err != nil {
			bad("LOG_LEVEL", "%q is not a level; valid values: debug, info, warn, error", v)
		}
	}
	if v, ok := get("MAX_CANDIDATES"); ok && v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			bad("MAX_CANDIDATES", "%q is not a positive whole number", v)
		} else {
			c.MaxCandidates = n
		}
	}
	durations := []struct {
		name string
		dst  *time.Duration
		zero bool
	}{
		{"RELOAD_INTERVAL", &c.ReloadInterval, true},
		{"SHUTDOWN_TIMEOUT", &c.ShutdownTimeout, false},
	}
	for _, d := range durations {
		v, ok := get(d.name)
		if !ok || v == "" {
			continue
		}
		t, err := time.ParseDuration(v)
		switch {
		case err != nil:
			bad(d.name, "%q is not a duration (for example 2s, 500ms)", v)
		case t < 0 || (t == 0 && !d.zero):
			bad(d.name, "%q must be positive", v)
		default:
			*d.dst = t
		}
	}
	if v, ok := get("METRICS_ADDR"); ok {
		addr, err := ParseMetricsAddr(v)
		switch {
		case err != nil:
			bad("METRICS_ADDR", "%v", err)
		case sameListener(addr, c.Addr):
			bad("METRICS_ADDR", "%q is the API's own address (HOST, PORT); give metrics a port of their own, or off", v)
		default:
			c.MetricsAddr = addr
		}
	}
	if v, ok := get("OTEL_EXPORTER_OTLP_ENDPOINT"); ok {
		c.OTLPEndpoint = v
	}
	if v, ok := get("OTEL_TRACES_SAMPLER"); ok {
		c.TracesSampler = v
	}
	if c.PublicAPIKey == "" && len(c.APIKeys) == 0 {
		bad("PUBLIC_API_KEY", "the public key is disabled and no API_KEYS are set, so no client could search; set one of them")
	}
	if len(errs) > 0 {
		return Config{}, fmt.Errorf("invalid configuration:\n%w", errors.Join(errs...))
	}
	return c, nil
}

// ParseMetricsAddr parses METRICS_ADDR: host:port (an empty host listens on
// every interface; port 0 picks a free one), or "" or "off" (any case),
// which disable the listener and return "". The address is returned in
// canonical form, IPv6 hosts in brackets.
func ParseMetricsAddr(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, MetricsOff) {
		return "", nil
	}
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return "", fmt.Errorf("%q is not host:port (for example 127.0.0.1:9464), or off", s)
	}
	if strings.ContainsAny(host, " /[]") {
		return "", fmt.Errorf("%q: %q is not a host name or IP address", s, host)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 0 || n > 65535 || strconv.Itoa(n) != port {
		return "", fmt.Errorf("%q: %q is not a port number (0-65535; 0 picks a free port)", s, port)
	}
	return net.JoinHostPort(host, port), nil
}

// sameListener reports whether two host:port addresses would claim the
// same fixed port: equal ports other than 0 on the same host, or on hosts
// where one is every interface.
func sameListener(a, b string) bool {
	ha, pa, errA := net.SplitHostPort(a)
	hb, pb, errB := net.SplitHostPort(b)
	if errA != nil || errB != nil || pa != pb || pa == "0" {
		return false
	}
	everywhere := func(h string) bool {
		ip, err := netip.ParseAddr(h)
		return h == "" || err == nil && ip.IsUnspecified()
	}
	return ha == hb || everywhere(ha) || everywhere(hb)
}

func merge(dst, src map[string]int, name string, bad func(string, string, ...any)) {
	for k, v := range src {
		if _, dup := dst[k]; dup {
			bad(name, "a key is listed twice (API_KEYS and API_KEYS_FILE together)")
			continue
		}
		dst[k] = v
	}
}

// ParseKeys parses production keys, one key=budget per line; blank lines and
// lines starting with # are ignored. Errors name the line but never the key.
func ParseKeys(text string) (map[string]int, error) {
	keys := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return nil, fmt.Errorf("entry %d: want key=budget", line)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if err := checkKey(k); err != nil {
			return nil, fmt.Errorf("entry %d: %w", line, err)
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("entry %d: budget %q is not a positive whole number", line, v)
		}
		if _, dup := keys[k]; dup {
			return nil, fmt.Errorf("entry %d: key listed twice", line)
		}
		keys[k] = n
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read keys: %w", err)
	}
	return keys, nil
}

// checkKey accepts keys of printable ASCII without spaces, commas or '='.
func checkKey(k string) error {
	if len(k) < minKeyLen || len(k) > maxKeyLen {
		return fmt.Errorf("a key must be %d to %d characters long", minKeyLen, maxKeyLen)
	}
	for i := 0; i < len(k); i++ {
		if b := k[i]; b <= ' ' || b > '~' || b == ',' || b == '=' {
			return errors.New("a key may hold only printable ASCII without spaces, ',' or '='")
		}
	}
	return nil
}

// ParsePrefixes parses a comma-separated list of CIDR prefixes or bare IP
// addresses (a bare address is a /32 or /128). IPv4-mapped IPv6 prefixes are
// unmapped so they match the addresses the server sees.
func ParsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		var p netip.Prefix
		if strings.Contains(f, "/") {
			var err error
			if p, err = netip.ParsePrefix(f); err != nil {
				return nil, fmt.Errorf("%q is not a CIDR prefix (for example 10.0.0.0/8)", f)
			}
		} else {
			a, err := netip.ParseAddr(f)
			if err != nil {
				return nil, fmt.Errorf("%q is not an IP address or CIDR prefix", f)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
		}
		if p.Addr().Zone() != "" {
			return nil, fmt.Errorf("%q: zoned addresses are not supported", f)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}
