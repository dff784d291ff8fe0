package config

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestLoadClient(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    Client
		wantErr string
	}{
		{"defaults", nil, Client{BaseURL: "http://127.0.0.1:8080", APIKey: "ps_public_demo_key", Timeout: 15 * time.Second}, ""},
		{"set", map[string]string{"PRODUCT_SEARCH_BASE_URL": " https://search.example.com/v1 ", "PRODUCT_SEARCH_API_KEY": "prodkey-0001", "PRODUCT_SEARCH_TIMEOUT": "3s"},
			Client{BaseURL: "https://search.example.com/v1", APIKey: "prodkey-0001", Timeout: 3 * time.Second}, ""},
		{"empty key is the public key", map[string]string{"PRODUCT_SEARCH_API_KEY": " "}, Client{BaseURL: "http://127.0.0.1:8080", APIKey: "ps_public_demo_key", Timeout: 15 * time.Second}, ""},
		{"bad timeout", map[string]string{"PRODUCT_SEARCH_TIMEOUT": "soon"}, Client{}, `PRODUCT_SEARCH_TIMEOUT: "soon" is not a positive duration`},
		{"negative timeout", map[string]string{"PRODUCT_SEARCH_TIMEOUT": "-1s"}, Client{}, "PRODUCT_SEARCH_TIMEOUT:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := LoadClient(env(tt.env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("LoadClient error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("LoadClient mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
