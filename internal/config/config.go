// Package config reads the configuration of the API server (Load) and of
// the stdio MCP server, a client of the API (LoadClient), from environment
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
	"net/url"
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
	DefaultShutdownReadWait = time.Second
	DefaultMaxConnsPerAddr  = 256
	DefaultMetricsAddr      = "127.0.0.1:9464"
	DefaultESIndex          = "products"
	DefaultESTimeout        = 2 * time.Second
	// DefaultESHealthInterval and DefaultESHealthStale: the cluster view
	// that health reports is refreshed every 5s and degraded after 15s
	// of failed refreshes.
	DefaultESHealthInterval = 5 * time.Second
	DefaultESHealthStale    = 15 * time.Second
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
	// ShutdownReadWait bounds, on shutdown, the wait for a request that is
	// still being received (its headers or body half-sent); it is closed
	// after that, whatever ShutdownTimeout leaves.
	ShutdownReadWait time.Duration
	// MaxConns is the number of client connections open at once; 0 derives
	// it from the open-file limit (connlimit.DefaultMax).
	MaxConns int
	// MaxConnsPerAddr is the number of connections open at once from one
	// client address (an IPv6 /64 counts as one); trusted proxies are
	// exempt.
	MaxConnsPerAddr int
	// PublicOrigins are the browser origins (scheme://host[:port]) besides
	// loopback ones that may call POST /api/mcp.
	PublicOrigins []string
	// MetricsAddr is host:port of the operators' Prometheus listener
	// (GET /metrics, no key, not rate limited); empty when it is off.
	MetricsAddr string
	// Telemetry is what the OTEL_* variables decide.
	Telemetry Telemetry
	// Elasticsearch is the cluster SEARCH_BACKEND=elasticsearch queries.
	Elasticsearch Elasticsearch
}

// Elasticsearch holds the ELASTICSEARCH_* settings.
type Elasticsearch struct {
	// Addresses are the node URLs (ELASTICSEARCH_URL, comma-separated).
	Addresses []string
	// Index is the alias searched (ELASTICSEARCH_INDEX).
	Index string
	// APIKey is a base64 API key; it takes precedence over Username and
	// Password.
	APIKey             string
	Username, Password string
	// CAFile is a PEM file of certificate authorities; empty uses the
	// system roots.
	CAFile string
	// Timeout bounds one query.
	Timeout time.Duration
	// HealthInterval is how often the API refreshes its view of the
	// cluster for /api/health (ELASTICSEARCH_HEALTH_INTERVAL); zero is
	// the engine's default.
	HealthInterval time.Duration
	// HealthStale is how long refreshes may fail before health reports
	// degraded (ELASTICSEARCH_HEALTH_STALE); zero is the engine's default.
	HealthStale time.Duration
}

// Variables lists every environment variable the server reads, with its
// meaning and default, in the order they are documented.
func Variables() [][3]string {
	return [][3]string{
		{"HOST", "interface to listen on (0.0.0.0 in a container)", DefaultHost},
		{"PORT", "TCP port to listen on", strconv.Itoa(DefaultPort)},
		{"CATALOG_PATH", "catalog snapshot served by the memory backend", DefaultCatalogPath},
		{"SEARCH_BACKEND", "search engine: " + strings.Join(backends[:], ", "), DefaultBackend},
		{EnvESURL, "comma-separated nodes, with SEARCH_BACKEND=elasticsearch", "(unset)"},
		{EnvESIndex, "alias the indexer publishes to", DefaultESIndex},
		{envESAPIKey, "API key (or " + envESUsername + " and " + envESPassword + ")", "(unset)"},
		{envESCAFile, "PEM file of the cluster's certificate authority", "(unset: system roots)"},
		{envESTimeout, "query timeout (Go duration)", DefaultESTimeout.String()},
		{envESHealthInterval, "how often the view of the cluster that /api/health reports is refreshed (Go duration)", DefaultESHealthInterval.String()},
		{envESHealthStale, "how long refreshes of that view may fail before health is degraded (Go duration)", DefaultESHealthStale.String()},
		{"REDIS_URL", "redis://host:port/db shared by replicas for rate limits", "(unset: in-process limiter)"},
		{"PUBLIC_API_KEY", "shared public key; set it empty to disable it", DefaultPublicAPIKey},
		{"API_KEYS", "production keys with hourly budgets: key1=1000,key2=5000", "(unset)"},
		{"API_KEYS_FILE", "file with one key=budget per line, # comments", "(unset)"},
		{"RATE_LIMIT_PER_HOUR", "requests per hour per client IP", strconv.Itoa(DefaultRateLimitPerHour)},
		{"TRUSTED_PROXIES", "comma-separated CIDRs or IPs whose X-Forwarded-For is trusted", "(unset: none)"},
		{"MAX_CONNS", "client connections open at once; more wait to be accepted", "(unset: 9/10 of the open-file limit)"},
		{"MAX_CONNS_PER_ADDR", "connections open at once from one client address (IPv6: one /64); more are answered 429; trusted proxies are exempt", strconv.Itoa(DefaultMaxConnsPerAddr)},
		{"PUBLIC_ORIGINS", "comma-separated browser origins (https://host[:port]) allowed to call POST /api/mcp besides loopback ones", "(unset: loopback only)"},
		{"LOG_LEVEL", "debug, info, warn or error", "info"},
		{"MAX_CANDIDATES", "candidates checked when constraints apply", strconv.Itoa(DefaultMaxCandidates)},
		{"RELOAD_INTERVAL", "snapshot poll interval (Go duration, 0 disables)", DefaultReloadInterval.String()},
		{"SHUTDOWN_TIMEOUT", "wait for in-flight requests on SIGTERM (Go duration)", DefaultShutdownTimeout.String()},
		{"SHUTDOWN_READ_WAIT", "on SIGTERM, wait for a request still being received before closing its connection (Go duration)", DefaultShutdownReadWait.String()},
		{"METRICS_ADDR", "host:port of the operators' Prometheus GET /metrics (no key, not rate limited); empty or off disables it", DefaultMetricsAddr},
		{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTLP collector for traces and metrics (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, _METRICS_ENDPOINT)", "(unset: METRICS_ADDR only, no tracing)"},
		{"OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf or grpc (per signal: OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, ...)", "http/protobuf"},
		{"OTEL_EXPORTER_OTLP_HEADERS", "headers sent to the collector: key1=value1,key2=value2", "(unset)"},
		{"OTEL_TRACES_EXPORTER", "otlp, console or none", "otlp when an endpoint is set, else none"},
		{"OTEL_METRICS_EXPORTER", "otlp, console or none (Prometheus is METRICS_ADDR)", "otlp when an endpoint is set, else none"},
		{"OTEL_TRACES_SAMPLER", "standard OpenTelemetry sampler (with OTEL_TRACES_SAMPLER_ARG)", "5% of requests, parent-based"},
		{"OTEL_SERVICE_NAME", "service.name of spans and metrics", "productsearch-api"},
		{"OTEL_RESOURCE_ATTRIBUTES", "extra resource attributes: key1=value1,key2=value2", "(unset)"},
		{"OTEL_SDK_DISABLED", "true disables tracing and OTLP export", "false"},
		{"K8S_POD_NAME", "pod name (downward API): k8s.pod.name and service.instance.id", "(unset)"},
		{"K8S_NAMESPACE_NAME", "namespace (downward API): k8s.namespace.name", "(unset)"},
	}
}

// Names of the Elasticsearch variables.
const (
	// EnvESURL holds the comma-separated node URLs.
	EnvESURL = "ELASTICSEARCH_URL"
	// EnvESIndex names the alias searched and published.
	EnvESIndex    = "ELASTICSEARCH_INDEX"
	envESAPIKey   = "ELASTICSEARCH_API_KEY"
	envESUsername = "ELASTICSEARCH_USERNAME"
	envESPassword = "ELASTICSEARCH_PASSWORD"
	envESCAFile   = "ELASTICSEARCH_CA_FILE"
	envESTimeout  = "ELASTICSEARCH_TIMEOUT"

	envESHealthInterval = "ELASTICSEARCH_HEALTH_INTERVAL"
	envESHealthStale    = "ELASTICSEARCH_HEALTH_STALE"
)

// Defaults returns the configuration of an empty environment.
func Defaults() Config {
	return Config{
		Addr:             net.JoinHostPort(DefaultHost, strconv.Itoa(DefaultPort)),
		CatalogPath:      DefaultCatalogPath,
		SearchBackend:    DefaultBackend,
		PublicAPIKey:     DefaultPublicAPIKey,
		APIKeys:          map[string]int{},
		RateLimitPerHour: DefaultRateLimitPerHour,
		LogLevel:         slog.LevelInfo,
		MaxCandidates:    DefaultMaxCandidates,
		ReloadInterval:   DefaultReloadInterval,
		ShutdownTimeout:  DefaultShutdownTimeout,
		ShutdownReadWait: DefaultShutdownReadWait,
		MaxConnsPerAddr:  DefaultMaxConnsPerAddr,
		MetricsAddr:      DefaultMetricsAddr,
		Elasticsearch:    Elasticsearch{Index: DefaultESIndex, Timeout: DefaultESTimeout},
		Telemetry:        Telemetry{TracesProtocol: "http/protobuf"},
	}
}

// Load reads the configuration through lookup (os.LookupEnv in production)
// over the Defaults and validates it. Every problem found is reported, one
// per line.
func Load(lookup func(string) (string, bool)) (Config, error) {
	r := &reader{lookup: lookup}
	c := Defaults()
	r.listen(&c)
	r.backend(&c)
	r.keys(&c)
	r.limits(&c)
	r.operations(&c)
	if c.PublicAPIKey == "" && len(c.APIKeys) == 0 {
		r.bad("PUBLIC_API_KEY", "the public key is disabled and no API_KEYS are set, so no client could search; set one of them")
	}
	if len(r.errs) > 0 {
		return Config{}, fmt.Errorf("invalid configuration:\n%w", errors.Join(r.errs...))
	}
	return c, nil
}

// reader reads variables and collects what is wrong with them.
type reader struct {
	lookup func(string) (string, bool)
	errs   []error
}

// get returns a variable with surrounding space trimmed.
func (r *reader) get(name string) (string, bool) {
	v, ok := r.lookup(name)
	return strings.TrimSpace(v), ok
}

// value returns a variable that is set and not empty.
func (r *reader) value(name string) (string, bool) {
	v, ok := r.get(name)
	return v, ok && v != ""
}

func (r *reader) bad(name, format string, args ...any) {
	r.errs = append(r.errs, fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...)))
}

// positive reads a positive whole number into dst.
func (r *reader) positive(name string, dst *int) {
	if v, ok := r.value(name); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			r.bad(name, "%q is not a positive whole number", v)
			return
		}
		*dst = n
	}
}

// duration reads a Go duration into dst; zero is accepted when zeroOK.
func (r *reader) duration(name string, dst *time.Duration, zeroOK bool) {
	v, ok := r.value(name)
	if !ok {
		return
	}
	t, err := time.ParseDuration(v)
	switch {
	case err != nil:
		r.bad(name, "%q is not a duration (for example 2s, 500ms)", v)
	case t < 0 || (t == 0 && !zeroOK):
		r.bad(name, "%q must be positive", v)
	default:
		*dst = t
	}
}

// listen reads HOST and PORT.
func (r *reader) listen(c *Config) {
	host := DefaultHost
	if v, ok := r.value("HOST"); ok {
		if strings.ContainsAny(v, " /") {
			r.bad("HOST", "%q is not a host name or IP address", v)
		}
		host = strings.Trim(v, "[]")
	}
	port := DefaultPort
	if v, ok := r.value("PORT"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 65535 {
			r.bad("PORT", "%q is not a port number (0-65535; 0 picks a free port)", v)
		} else {
			port = n
		}
	}
	c.Addr = net.JoinHostPort(host, strconv.Itoa(port))
}

// backend reads the engine settings: CATALOG_PATH, SEARCH_BACKEND,
// MAX_CANDIDATES and ELASTICSEARCH_*.
func (r *reader) backend(c *Config) {
	if v, ok := r.value("CATALOG_PATH"); ok {
		c.CatalogPath = v
	}
	if v, ok := r.value("SEARCH_BACKEND"); ok {
		if !slices.Contains(backends[:], v) {
			r.bad("SEARCH_BACKEND", "%q is not supported by this build; valid values: %s", v, strings.Join(backends[:], ", "))
		}
		c.SearchBackend = v
	}
	r.positive("MAX_CANDIDATES", &c.MaxCandidates)

	r.elasticsearch(&c.Elasticsearch, c.SearchBackend == BackendElasticsearch)
}

// LoadElasticsearch reads only the ELASTICSEARCH_* variables through lookup
// over their defaults, for programs such as the indexer that talk to the
// cluster without serving: the node URLs are required.
func LoadElasticsearch(lookup func(string) (string, bool)) (Elasticsearch, error) {
	r := &reader{lookup: lookup}
	es := Defaults().Elasticsearch
	r.elasticsearch(&es, true)
	if len(r.errs) > 0 {
		return Elasticsearch{}, fmt.Errorf("invalid configuration:\n%w", errors.Join(r.errs...))
	}
	return es, nil
}

// elasticsearch reads the ELASTICSEARCH_* variables into es; required says
// the node URLs must be set.
func (r *reader) elasticsearch(es *Elasticsearch, required bool) {
	if v, ok := r.value(EnvESURL); ok {
		for a := range strings.SplitSeq(v, ",") {
			if a = strings.TrimSpace(a); a != "" {
				es.Addresses = append(es.Addresses, strings.TrimRight(a, "/"))
			}
		}
	}
	for _, a := range es.Addresses {
		if u, err := url.Parse(a); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			r.bad(EnvESURL, "%q is not an http or https URL (for example http://127.0.0.1:9200)", a)
		}
	}
	if required && len(es.Addresses) == 0 {
		r.bad(EnvESURL, "set the cluster's node URLs, comma-separated (for example http://127.0.0.1:9200)")
	}
	if v, ok := r.value(EnvESIndex); ok {
		es.Index = v
	}
	es.APIKey, _ = r.get(envESAPIKey)
	es.Username, _ = r.lookup(envESUsername)
	es.Password, _ = r.lookup(envESPassword)
	es.CAFile, _ = r.get(envESCAFile)
	r.duration(envESTimeout, &es.Timeout, false)
	r.duration(envESHealthInterval, &es.HealthInterval, false)
	r.duration(envESHealthStale, &es.HealthStale, false)
}

// keys reads PUBLIC_API_KEY, API_KEYS and API_KEYS_FILE.
func (r *reader) keys(c *Config) {
	if v, ok := r.get("PUBLIC_API_KEY"); ok {
		if v != "" {
			if err := checkKey(v); err != nil {
				r.bad("PUBLIC_API_KEY", "%v", err)
			}
		}
		c.PublicAPIKey = v
	}
	if v, ok := r.value("API_KEYS"); ok {
		keys, err := ParseKeys(strings.ReplaceAll(v, ",", "\n"))
		if err != nil {
			r.bad("API_KEYS", "%v", err)
		}
		r.merge(c.APIKeys, keys, "API_KEYS")
	}
	if v, ok := r.value("API_KEYS_FILE"); ok {
		data, err := os.ReadFile(v)
		if err != nil {
			r.bad("API_KEYS_FILE", "%v", err)
		} else {
			keys, err := ParseKeys(string(data))
			if err != nil {
				r.bad("API_KEYS_FILE", "%s: %v", v, err)
			}
			r.merge(c.APIKeys, keys, "API_KEYS_FILE")
		}
	}
	if _, dup := c.APIKeys[c.PublicAPIKey]; dup && c.PublicAPIKey != "" {
		r.bad("API_KEYS", "the public key is also listed as a production key; give production keys their own values")
	}
}

func (r *reader) merge(dst, src map[string]int, name string) {
	for k, v := range src {
		if _, dup := dst[k]; dup {
			r.bad(name, "a key is listed twice (API_KEYS and API_KEYS_FILE together)")
			continue
		}
		dst[k] = v
	}
}

// limits reads REDIS_URL, RATE_LIMIT_PER_HOUR, TRUSTED_PROXIES, the
// connection budgets and PUBLIC_ORIGINS.
func (r *reader) limits(c *Config) {
	if v, ok := r.value("REDIS_URL"); ok {
		if _, err := redis.ParseURL(v); err != nil {
			r.bad("REDIS_URL", "cannot parse it (want redis://host:port/db): %v", err)
		}
		c.RedisURL = v
	}
	r.positive("RATE_LIMIT_PER_HOUR", &c.RateLimitPerHour)
	if v, ok := r.value("TRUSTED_PROXIES"); ok {
		p, err := ParsePrefixes(v)
		if err != nil {
			r.bad("TRUSTED_PROXIES", "%v", err)
		}
		c.TrustedProxies = p
	}
	r.positive("MAX_CONNS", &c.MaxConns)
	r.positive("MAX_CONNS_PER_ADDR", &c.MaxConnsPerAddr)
	if v, ok := r.value("PUBLIC_ORIGINS"); ok {
		for o := range strings.SplitSeq(v, ",") {
			if o = strings.TrimSpace(o); o == "" {
				continue
			}
			if u, err := url.Parse(o); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
				(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
				r.bad("PUBLIC_ORIGINS", "%q is not an origin: write scheme://host[:port], for example https://search.example.com", o)
				continue
			}
			c.PublicOrigins = append(c.PublicOrigins, o)
		}
	}
}

// operations reads LOG_LEVEL, RELOAD_INTERVAL, SHUTDOWN_TIMEOUT,
// SHUTDOWN_READ_WAIT, METRICS_ADDR and the OpenTelemetry variables the server acts on.
func (r *reader) operations(c *Config) {
	if v, ok := r.value("LOG_LEVEL"); ok {
		if err := c.LogLevel.UnmarshalText([]byte(v)); err != nil {
			r.bad("LOG_LEVEL", "%q is not a level; valid values: debug, info, warn, error", v)
		}
	}
	r.duration("RELOAD_INTERVAL", &c.ReloadInterval, true)
	r.duration("SHUTDOWN_TIMEOUT", &c.ShutdownTimeout, false)
	r.duration("SHUTDOWN_READ_WAIT", &c.ShutdownReadWait, false)
	if v, ok := r.get("METRICS_ADDR"); ok {
		addr, err := ParseMetricsAddr(v)
		switch {
		case err != nil:
			r.bad("METRICS_ADDR", "%v", err)
		case sameListener(addr, c.Addr):
			r.bad("METRICS_ADDR", "%q is the API's own address (HOST, PORT); give metrics a port of their own, or off", v)
		default:
			c.MetricsAddr = addr
		}
	}
	r.telemetry(&c.Telemetry)
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
