package config

import (
	"log/slog"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

func TestLoadDefaults(t *testing.T) {
	got, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Addr:             "127.0.0.1:8080",
		CatalogPath:      "build/catalog.snapshot",
		SearchBackend:    "memory",
		PublicAPIKey:     "ps_public_demo_key",
		APIKeys:          map[string]int{},
		RateLimitPerHour: 50,
		LogLevel:         slog.LevelInfo,
		MaxCandidates:    2000,
		ReloadInterval:   2 * time.Second,
		ShutdownTimeout:  10 * time.Second,
		ShutdownReadWait: time.Second,
		MaxConnsPerAddr:  256,
		MetricsAddr:      "127.0.0.1:9464",
		Elasticsearch:    Elasticsearch{Index: "products", Timeout: 2 * time.Second},
		Telemetry:        Telemetry{TracesProtocol: "http/protobuf"},
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateComparable(netip.Prefix{})); diff != "" {
		t.Errorf("Load mismatch (-want +got):\n%s", diff)
	}
}

func TestLoadAll(t *testing.T) {
	keysFile := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(keysFile, []byte("# partners\nfilekey-0001=700\n\n  filekey-0002 = 9000  \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := Load(env(map[string]string{
		"HOST":                          "0.0.0.0",
		"PORT":                          "9090",
		"CATALOG_PATH":                  "/data/catalog.snapshot",
		"SEARCH_BACKEND":                "memory",
		"REDIS_URL":                     "redis://redis:6379/0",
		"PUBLIC_API_KEY":                "public-key-123",
		"API_KEYS":                      "prodkey-0001=1000, prodkey-0002=5000",
		"API_KEYS_FILE":                 keysFile,
		"RATE_LIMIT_PER_HOUR":           "120",
		"TRUSTED_PROXIES":               "10.0.0.0/8, 192.168.1.1, ::ffff:172.16.0.0/108",
		"LOG_LEVEL":                     "debug",
		"MAX_CANDIDATES":                "500",
		"RELOAD_INTERVAL":               "0",
		"SHUTDOWN_TIMEOUT":              "30s",
		"SHUTDOWN_READ_WAIT":            "500ms",
		"MAX_CONNS":                     "5000",
		"MAX_CONNS_PER_ADDR":            "32",
		"PUBLIC_ORIGINS":                "https://search.example.com, http://explorer.example.com:8080",
		"METRICS_ADDR":                  " [::1]:9100 ",
		"OTEL_EXPORTER_OTLP_ENDPOINT":   "http://collector:4318",
		"ELASTICSEARCH_URL":             "https://es-1:9200/, http://es-2:9200",
		"ELASTICSEARCH_INDEX":           "products-blue",
		"ELASTICSEARCH_USERNAME":        "search",
		"ELASTICSEARCH_PASSWORD":        " secret ",
		"ELASTICSEARCH_CA_FILE":         "/etc/es/ca.pem",
		"ELASTICSEARCH_TIMEOUT":         "750ms",
		"ELASTICSEARCH_HEALTH_INTERVAL": "2s",
		"ELASTICSEARCH_HEALTH_STALE":    "1m",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Addr:             "0.0.0.0:9090",
		CatalogPath:      "/data/catalog.snapshot",
		SearchBackend:    "memory",
		RedisURL:         "redis://redis:6379/0",
		PublicAPIKey:     "public-key-123",
		APIKeys:          map[string]int{"prodkey-0001": 1000, "prodkey-0002": 5000, "filekey-0001": 700, "filekey-0002": 9000},
		RateLimitPerHour: 120,
		TrustedProxies: []netip.Prefix{
			netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.168.1.1/32"), netip.MustParsePrefix("172.16.0.0/12"),
		},
		LogLevel:         slog.LevelDebug,
		MaxCandidates:    500,
		ReloadInterval:   0,
		ShutdownTimeout:  30 * time.Second,
		ShutdownReadWait: 500 * time.Millisecond,
		MaxConns:         5000,
		MaxConnsPerAddr:  32,
		PublicOrigins:    []string{"https://search.example.com", "http://explorer.example.com:8080"},
		MetricsAddr:      "[::1]:9100",
		Telemetry: Telemetry{TracesEndpoint: "http://collector:4318", MetricsEndpoint: "http://collector:4318",
			TracesProtocol: "http/protobuf"},
		Elasticsearch: Elasticsearch{Addresses: []string{"https://es-1:9200", "http://es-2:9200"}, Index: "products-blue",
			Username: "search", Password: " secret ", CAFile: "/etc/es/ca.pem", Timeout: 750 * time.Millisecond,
			HealthInterval: 2 * time.Second, HealthStale: time.Minute},
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateComparable(netip.Prefix{})); diff != "" {
		t.Errorf("Load mismatch (-want +got):\n%s", diff)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want []string // substrings of the error
	}{
		{"bad port", map[string]string{"PORT": "http"}, []string{"PORT:", "not a port number"}},
		{"port out of range", map[string]string{"PORT": "70000"}, []string{"PORT:"}},
		{"unknown backend", map[string]string{"SEARCH_BACKEND": "solr"}, []string{"SEARCH_BACKEND:", `"solr"`, "valid values: memory"}},
		{"bad redis url", map[string]string{"REDIS_URL": "http://x"}, []string{"REDIS_URL:"}},
		{"short public key", map[string]string{"PUBLIC_API_KEY": "abc"}, []string{"PUBLIC_API_KEY:", "8 to 256"}},
		{"no key at all", map[string]string{"PUBLIC_API_KEY": ""}, []string{"no client could search"}},
		{"key without budget", map[string]string{"API_KEYS": "prodkey-0001"}, []string{"API_KEYS:", "entry 1", "key=budget"}},
		{"zero budget", map[string]string{"API_KEYS": "prodkey-0001=0"}, []string{"API_KEYS:", "positive"}},
		{"duplicate key", map[string]string{"API_KEYS": "prodkey-0001=5,prodkey-0001=6"}, []string{"listed twice"}},
		{"key with space", map[string]string{"API_KEYS": "prod key 0001=5"}, []string{"printable ASCII"}},
		{"public key reused", map[string]string{"API_KEYS": "ps_public_demo_key=5"}, []string{"also listed as a production key"}},
		{"missing keys file", map[string]string{"API_KEYS_FILE": "/nonexistent/keys"}, []string{"API_KEYS_FILE:"}},
		{"zero rate limit", map[string]string{"RATE_LIMIT_PER_HOUR": "0"}, []string{"RATE_LIMIT_PER_HOUR:"}},
		{"bad proxy", map[string]string{"TRUSTED_PROXIES": "10.0.0.0/33"}, []string{"TRUSTED_PROXIES:", "CIDR"}},
		{"bad proxy address", map[string]string{"TRUSTED_PROXIES": "proxy.local"}, []string{"TRUSTED_PROXIES:"}},
		{"bad level", map[string]string{"LOG_LEVEL": "loud"}, []string{"LOG_LEVEL:", "debug, info, warn, error"}},
		{"bad candidates", map[string]string{"MAX_CANDIDATES": "-1"}, []string{"MAX_CANDIDATES:"}},
		{"bad interval", map[string]string{"RELOAD_INTERVAL": "2"}, []string{"RELOAD_INTERVAL:", "duration"}},
		{"zero shutdown", map[string]string{"SHUTDOWN_TIMEOUT": "0s"}, []string{"SHUTDOWN_TIMEOUT:", "positive"}},
		{"zero connections", map[string]string{"MAX_CONNS_PER_ADDR": "0"}, []string{"MAX_CONNS_PER_ADDR:", "positive"}},
		{"origin with a path", map[string]string{"PUBLIC_ORIGINS": "https://a.example.com/app"}, []string{"PUBLIC_ORIGINS:", "not an origin"}},
		{"metrics without port", map[string]string{"METRICS_ADDR": "127.0.0.1"}, []string{"METRICS_ADDR:", "host:port", "or off"}},
		{"metrics bad port", map[string]string{"METRICS_ADDR": "127.0.0.1:99999"}, []string{"METRICS_ADDR:", "not a port number"}},
		{"metrics on the API port", map[string]string{"METRICS_ADDR": "127.0.0.1:8080"}, []string{"METRICS_ADDR:", "API's own address"}},
		{"metrics on every interface of the API port", map[string]string{"PORT": "9000", "METRICS_ADDR": ":9000"}, []string{"METRICS_ADDR:", "API's own address"}},
		{"elasticsearch without nodes", map[string]string{"SEARCH_BACKEND": "elasticsearch"}, []string{"ELASTICSEARCH_URL:", "node URLs"}},
		{"elasticsearch node not a URL", map[string]string{"ELASTICSEARCH_URL": "es-1:9200"}, []string{"ELASTICSEARCH_URL:", "http or https URL"}},
		{"elasticsearch timeout", map[string]string{"ELASTICSEARCH_TIMEOUT": "0"}, []string{"ELASTICSEARCH_TIMEOUT:", "positive"}},
		{"elasticsearch health interval", map[string]string{"ELASTICSEARCH_HEALTH_INTERVAL": "often"}, []string{"ELASTICSEARCH_HEALTH_INTERVAL:", "not a duration"}},
		{"elasticsearch health staleness", map[string]string{"ELASTICSEARCH_HEALTH_STALE": "-1s"}, []string{"ELASTICSEARCH_HEALTH_STALE:", "positive"}},
		{"unknown trace exporter", map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}, []string{"OTEL_TRACES_EXPORTER:", "otlp, console, none"}},
		{"prometheus push", map[string]string{"OTEL_METRICS_EXPORTER": "prometheus"}, []string{"OTEL_METRICS_EXPORTER:"}},
		{"json protocol", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/json"}, []string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL:"}},
		{"unknown sampler", map[string]string{"OTEL_TRACES_SAMPLER": "sometimes"}, []string{"OTEL_TRACES_SAMPLER:"}},
		{"ratio out of range", map[string]string{"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "5"}, []string{"OTEL_TRACES_SAMPLER_ARG:", "between 0 and 1"}},
		{"sdk disabled not a bool", map[string]string{"OTEL_SDK_DISABLED": "yes please"}, []string{"OTEL_SDK_DISABLED:"}},
		{"several at once", map[string]string{"PORT": "x", "LOG_LEVEL": "y"}, []string{"PORT:", "LOG_LEVEL:"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(env(tc.env))
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestTelemetry(t *testing.T) {
	tests := []struct {
		name            string
		env             map[string]string
		traces, metrics bool
		endpoint        string
	}{
		{"unset", nil, false, false, "http://localhost:4318"},
		{"general endpoint", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}, true, true, "http://c:4318"},
		{"traces endpoint alone", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces"}, true, false, "http://c:4318/v1/traces"},
		{"metrics endpoint alone", map[string]string{"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://c:4318/v1/metrics"}, false, true, "http://localhost:4318"},
		{"per-signal wins", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://b/t"}, true, true, "http://b/t"},
		{"exporter named", map[string]string{"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, true, false, "localhost:4317"},
		{"console", map[string]string{"OTEL_TRACES_EXPORTER": "Console"}, true, false, "stdout"},
		{"none", map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}, false, true, "http://c:4318"},
		{"sdk disabled", map[string]string{"OTEL_SDK_DISABLED": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}, false, false, "http://c:4318"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(env(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			got := [3]any{c.Telemetry.ExportTraces(), c.Telemetry.ExportMetrics(), c.Telemetry.Endpoint()}
			if diff := cmp.Diff([3]any{tc.traces, tc.metrics, tc.endpoint}, got); diff != "" {
				t.Errorf("traces, metrics, endpoint mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMetricsAddr(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"unset", nil, "127.0.0.1:9464"},
		{"empty", map[string]string{"METRICS_ADDR": ""}, ""},
		{"blank", map[string]string{"METRICS_ADDR": "  "}, ""},
		{"off", map[string]string{"METRICS_ADDR": "off"}, ""},
		{"OFF", map[string]string{"METRICS_ADDR": "OFF"}, ""},
		{"every interface", map[string]string{"METRICS_ADDR": ":9464"}, ":9464"},
		{"host name", map[string]string{"METRICS_ADDR": "localhost:9100"}, "localhost:9100"},
		{"IPv6", map[string]string{"METRICS_ADDR": "[::]:9464"}, "[::]:9464"},
		// Port 0 never collides: each listener picks its own.
		{"free ports", map[string]string{"PORT": "0", "METRICS_ADDR": "127.0.0.1:0"}, "127.0.0.1:0"},
		{"same host, other port", map[string]string{"PORT": "9000", "METRICS_ADDR": "127.0.0.1:9001"}, "127.0.0.1:9001"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(env(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, c.MetricsAddr); diff != "" {
				t.Errorf("MetricsAddr mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseMetricsAddr(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{in: "", want: ""},
		{in: "Off", want: ""},
		{in: "127.0.0.1:9464", want: "127.0.0.1:9464"},
		{in: "[fe80::1%eth0]:9464", want: "[fe80::1%eth0]:9464"},
		{in: "9464", err: `"9464" is not host:port`},
		{in: "127.0.0.1:", err: `"" is not a port number`},
		{in: "127.0.0.1:metrics", err: `"metrics" is not a port number`},
		{in: "127.0.0.1:+1", err: `"+1" is not a port number`},
		{in: "127.0.0.1:-1", err: `"-1" is not a port number`},
		{in: "127.0.0.1:65536", err: `"65536" is not a port number`},
		{in: "http://127.0.0.1:9464", err: "is not host:port"},
		{in: "my host:9464", err: `"my host" is not a host name or IP address`},
		{in: "a/b:9464", err: `"a/b" is not a host name or IP address`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseMetricsAddr(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseMetricsAddr(%q) = %q, %v; want an error containing %q", tc.in, got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseMetricsAddr(%q) mismatch (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestKeyErrorsDoNotLeakKeys(t *testing.T) {
	secret := "secret-key-value-99"
	for _, in := range []string{secret + "=x", secret + "=1," + secret + "=2", secret} {
		_, err := ParseKeys(strings.ReplaceAll(in, ",", "\n"))
		if err == nil {
			t.Fatalf("ParseKeys(%q) succeeded", in)
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error %q repeats the key", err)
		}
	}
}

func FuzzParseKeys(f *testing.F) {
	f.Add("a-long-key-1=10\n# c\nb-long-key-2=20")
	f.Add("=\n==\n#")
	f.Fuzz(func(t *testing.T, s string) {
		keys, err := ParseKeys(s)
		if err != nil {
			return
		}
		for k, v := range keys {
			if v < 1 || checkKey(k) != nil {
				t.Errorf("ParseKeys(%q) accepted %q=%d", s, k, v)
			}
		}
	})
}

func FuzzParsePrefixes(f *testing.F) {
	f.Add("10.0.0.0/8, 192.168.1.1")
	f.Add("::ffff:10.0.0.0/104,fd00::/8")
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := ParsePrefixes(s)
		if err != nil {
			return
		}
		for _, p := range ps {
			if !p.IsValid() || p != p.Masked() {
				t.Errorf("ParsePrefixes(%q) returned %v", s, p)
			}
		}
	})
}

func FuzzParseMetricsAddr(f *testing.F) {
	f.Add("127.0.0.1:9464")
	f.Add("[::1]:0")
	f.Add("off")
	f.Add(":")
	f.Fuzz(func(t *testing.T, s string) {
		addr, err := ParseMetricsAddr(s)
		if err != nil || addr == "" {
			return
		}
		// A canonical address parses to itself.
		again, err := ParseMetricsAddr(addr)
		if err != nil || again != addr {
			t.Errorf("ParseMetricsAddr(%q) = %q, which parses to %q, %v", s, addr, again, err)
		}
		if _, port, err := net.SplitHostPort(addr); err != nil || port == "" {
			t.Errorf("ParseMetricsAddr(%q) = %q, not host:port", s, addr)
		}
	})
}
