package memlimit

import (
	"errors"
	"testing"
)

func TestApply(t *testing.T) {
	const gib = 1 << 30
	noCgroup := func() (uint64, error) { return 0, errors.New("no cgroup memory limit") }
	tests := []struct {
		name      string
		env       string
		override  int
		cgroup    func() (uint64, error)
		want      Setting
		wantSet   int64 // what was passed to the runtime; 0: nothing set
		wantQuery bool  // the runtime was asked for its current limit
	}{
		{name: "from the container", cgroup: func() (uint64, error) { return 2 * gib, nil },
			want: Setting{Bytes: 2 * gib * 9 / 10, Source: "cgroup"}, wantSet: 2 * gib * 9 / 10},
		{name: "flag over container", override: 512, cgroup: func() (uint64, error) { return 2 * gib, nil },
			want: Setting{Bytes: 512 << 20, Source: "flag"}, wantSet: 512 << 20},
		{name: "GOMEMLIMIT over all", env: "700MiB", override: 512, cgroup: func() (uint64, error) { return 2 * gib, nil },
			want: Setting{Bytes: 700 << 20, Source: "GOMEMLIMIT"}, wantQuery: true},
		{name: "no container", cgroup: noCgroup, want: Setting{Source: "none"}},
		{name: "unlimited cgroup", cgroup: func() (uint64, error) { return 1 << 63, nil }, want: Setting{Source: "none"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var set int64
			queried := false
			env := func(k string) (string, bool) { return tt.env, k == "GOMEMLIMIT" && tt.env != "" }
			got := apply(tt.override, env, tt.cgroup, func(b int64) int64 {
				if b < 0 {
					queried = true
					return 700 << 20
				}
				set = b
				return 0
			})
			if got != tt.want || set != tt.wantSet || queried != tt.wantQuery {
				t.Errorf("apply = %+v (set %d, queried %v), want %+v (set %d, queried %v)", got, set, queried, tt.want, tt.wantSet, tt.wantQuery)
			}
		})
	}
}
