package config

import (
	"log/slog"
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
		"HOST":                        "0.0.0.0",
		"PORT":                        "9090",
		"CATALOG_PATH":                "/data/catalog.snapshot",
		"SEARCH_BACKEND":              "memory",
		"REDIS_URL":                   "redis://redis:6379/0",
		"PUBLIC_API_KEY":              "public-key-123",
		"API_KEYS":                    "prodkey-0001=1000, prodkey-0002=5000",
		"API_KEYS_FILE":               keysFile,
		"RATE_LIMIT_PER_HOUR":         "120",
		"TRUSTED_PROXIES":             "10.0.0.0/8, 192.168.1.1, ::ffff:172.16.0.0/108",
		"LOG_LEVEL":                   "debug",
		"MAX_CANDIDATES":              "500",
		"RELOAD_INTERVAL":             "0",
		"SHUTDOWN_TIMEOUT":            "30s",
		"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318",
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
		LogLevel:        slog.LevelDebug,
		MaxCandidates:   500,
		ReloadInterval:  0,
		ShutdownTimeout: 30 * time.Second,
		OTLPEndpoint:    "http://collector:4318",
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
