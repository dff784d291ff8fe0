package normalize

import (
	"strings"
	"time"
)

// lastUpdatedLayouts are the date forms feeds use, tried in order. Day-first
// dates are UK style. Times without a zone are UTC.
var lastUpdatedLayouts = [...]string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
	"2006-01-02",
	"2/1/2006 15:04:05",
	"2/1/2006 15:04",
	"2/1/2006",
	time.RFC1123Z,
	time.RFC1123,
}

// lastUpdated parses a feed's last-updated time (RFC 3339, "2006-01-02
// 15:04:05", "2006-01-02", UK "02/01/2006", RSS dates), in UTC. It returns
// the zero time for anything else; the caller then uses the sync time.
func lastUpdated(s string) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	for _, layout := range lastUpdatedLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}
