package elastic

import (
	"net/http"
	"strings"
)

// Endpoint returns the name of the Elasticsearch API that a request of
// method on path calls, as the client's own API functions name it in spans
// (db.operation.name): "search", "indices.update_aliases", "cat.indices",
// ..., or "request" when it is none this package knows.
func Endpoint(method, path string) string {
	path, _, _ = strings.Cut(path, "?")
	segs := strings.Split(strings.Trim(path, "/"), "/")
	if len(segs) == 1 && segs[0] == "" {
		return "info"
	}
	for i, seg := range segs {
		if seg == "_cat" && i+1 < len(segs) {
			return "cat." + segs[i+1]
		}
		if name := api(method, seg); name != "" {
			return name
		}
	}
	if len(segs) == 1 && !strings.HasPrefix(segs[0], "_") {
		switch method {
		case http.MethodPut:
			return "indices.create"
		case http.MethodDelete:
			return "indices.delete"
		case http.MethodHead:
			return "indices.exists"
		case http.MethodGet:
			return "indices.get"
		}
	}
	return "request"
}

// api names the API of a path segment that starts with an underscore.
func api(method, seg string) string {
	get := method == http.MethodGet
	switch seg {
	case "_search", "_msearch", "_mget", "_bulk", "_count":
		return seg[1:]
	case "_refresh", "_forcemerge":
		return "indices." + seg[1:]
	case "_aliases":
		return "indices.update_aliases"
	case "_alias":
		return "indices.get_alias"
	case "_mapping", "_settings":
		if get {
			return "indices.get" + seg
		}
		return "indices.put" + seg
	case "_doc":
		switch {
		case get:
			return "get"
		case method == http.MethodDelete:
			return "delete"
		}
		return "index"
	}
	return ""
}
