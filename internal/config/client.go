package config

import (
	"errors"
	"fmt"
	"time"
)

// Environment of the stdio MCP server (cmd/mcp-stdio), a client of the
// REST API.
const (
	EnvClientBaseURL = "PRODUCT_SEARCH_BASE_URL"
	EnvClientAPIKey  = "PRODUCT_SEARCH_API_KEY"
	EnvClientTimeout = "PRODUCT_SEARCH_TIMEOUT"
)

// Defaults of the client settings.
const (
	DefaultClientBaseURL = "http://127.0.0.1:8080"
	DefaultClientTimeout = 15 * time.Second
)

// Client is the configuration of a client of the REST API.
type Client struct {
	// BaseURL is the API's address (checked by the client).
	BaseURL string
	// APIKey is sent as the bearer key; the public key by default.
	APIKey string
	// Timeout bounds one request.
	Timeout time.Duration
}

// ClientVariables lists the environment variables LoadClient reads, with
// their meaning and default.
func ClientVariables() [][3]string {
	return [][3]string{
		{EnvClientBaseURL, "base address of the product search REST API", DefaultClientBaseURL},
		{EnvClientAPIKey, "API key sent as Authorization: Bearer", "the public key"},
		{EnvClientTimeout, "timeout of one API request (Go duration)", DefaultClientTimeout.String()},
	}
}

// LoadClient reads the client configuration through lookup
// (os.LookupEnv in production) over its defaults.
func LoadClient(lookup func(string) (string, bool)) (Client, error) {
	r := &reader{lookup: lookup}
	c := Client{BaseURL: DefaultClientBaseURL, APIKey: DefaultPublicAPIKey, Timeout: DefaultClientTimeout}
	if v, ok := r.value(EnvClientBaseURL); ok {
		c.BaseURL = v
	}
	if v, ok := r.value(EnvClientAPIKey); ok {
		c.APIKey = v
	}
	if v, ok := r.value(EnvClientTimeout); ok {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			r.bad(EnvClientTimeout, "%q is not a positive duration; use e.g. 15s", v)
		}
		c.Timeout = d
	}
	if len(r.errs) > 0 {
		return Client{}, fmt.Errorf("invalid configuration:\n%w", errors.Join(r.errs...))
	}
	return c, nil
}
