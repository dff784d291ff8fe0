package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// toolCase is one tool call of testdata/tool_cases.json.
type toolCase struct {
	Name string          `json:"name"`
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
	Want struct {
		IDs                   []string                     `json:"ids"`
		Ordered               bool                         `json:"ordered"`
		Total                 *int                         `json:"total"`
		UnverifiedTotal       *int                         `json:"unverified_total"`
		ExcludedByConstraints *int                         `json:"excluded_by_constraints"`
		ConstraintStatus      map[string]map[string]string `json:"constraint_status"`
		MatchedFirst          bool                         `json:"matched_first"`
		Product               string                       `json:"product"`
		Offers                []string                     `json:"offers"`
		Error                 string                       `json:"error"`
		ErrorContains         []string                     `json:"error_contains"`
	} `json:"want"`
}

func loadToolCases(t *testing.T) []toolCase {
	t.Helper()
	data, err := os.ReadFile("testdata/tool_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []toolCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("decode testdata/tool_cases.json: %v", err)
	}
	return f.Cases
}

// connectInMemory connects an SDK client to the server over in-memory
// transports.
func connectInMemory(t *testing.T, s *sdk.Server) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return connect(t, ct, "")
}

// connect starts an SDK client session over transport with the given
// protocol version ("" for the SDK's latest).
func connect(t *testing.T, transport sdk.Transport, version string) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "productsearch-test", Version: "1.0.0"}, nil)
	cs, err := c.Connect(context.Background(), transport, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// sessions returns client sessions to the tools served every way they are
// served: in memory, over Streamable HTTP at three protocol versions, and
// by the stdio server over the REST API.
func sessions(t *testing.T) map[string]*sdk.ClientSession {
	t.Helper()
	engine := fixtureEngine(t)
	ts := httptest.NewServer(NewHandler(engine, Options{}))
	t.Cleanup(ts.Close)
	out := map[string]*sdk.ClientSession{"in-memory": connectInMemory(t, NewServer(engine, Options{}))}
	for _, v := range []string{"2025-06-18", "2025-11-25", ""} {
		name := "http " + v
		if v == "" {
			name = "http latest"
		}
		out[name] = connect(t, &sdk.StreamableClientTransport{Endpoint: ts.URL, DisableStandaloneSSE: true}, v)
	}
	out["stdio over REST"] = stdioSession(t, restServer(t, engine, testKey).URL, testKey)
	return out
}

func resolve(t *testing.T, schema any) *jsonschema.Resolved {
	t.Helper()
	b, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		t.Fatalf("resolve schema: %v", err)
	}
	return r
}

func TestTools(t *testing.T) {
	cases := loadToolCases(t)
	engine := fixtureEngine(t)
	for name, cs := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			list, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			outSchemas := map[string]*jsonschema.Resolved{}
			for _, tool := range list.Tools {
				outSchemas[tool.Name] = resolve(t, tool.OutputSchema)
			}
			for _, c := range cases {
				t.Run(c.Name, func(t *testing.T) {
					res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: c.Tool, Arguments: c.Args})
					if err != nil {
						t.Fatalf("call %s: %v", c.Tool, err)
					}
					checkToolResult(t, engine, outSchemas[c.Tool], c, res)
				})
			}
		})
	}
}

func checkToolResult(t *testing.T, engine search.Engine, outSchema *jsonschema.Resolved, c toolCase, res *sdk.CallToolResult) {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("got %d content blocks, want 1", len(res.Content))
	}
	text, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("content is %T, want text", res.Content[0])
	}
	if c.Want.Error != "" || len(c.Want.ErrorContains) > 0 {
		if !res.IsError {
			t.Fatalf("isError false, want an error; text %s", text.Text)
		}
		if res.StructuredContent != nil {
			t.Errorf("error result carries structured content %v", res.StructuredContent)
		}
		if c.Want.Error != "" && text.Text != c.Want.Error {
			t.Errorf("error mismatch (-want +got):\n%s", cmp.Diff(c.Want.Error, text.Text))
		}
		for _, s := range c.Want.ErrorContains {
			if !strings.Contains(text.Text, s) {
				t.Errorf("error %q does not contain %q", text.Text, s)
			}
		}
		return
	}
	if res.IsError {
		t.Fatalf("isError: %s", text.Text)
	}
	// The structured content is the text, and both conform to the output
	// schema.
	structured, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var fromText, fromStructured any
	if err := json.Unmarshal([]byte(text.Text), &fromText); err != nil {
		t.Fatalf("text content is not JSON: %v", err)
	}
	if err := json.Unmarshal(structured, &fromStructured); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fromText, fromStructured); diff != "" {
		t.Errorf("structured content differs from text (-text +structured):\n%s", diff)
	}
	if err := outSchema.Validate(fromStructured); err != nil {
		t.Errorf("result does not conform to the output schema of %s: %v", c.Tool, err)
	}
	if c.Tool == ToolGetProduct {
		checkProduct(t, engine, c, text.Text)
		return
	}
	checkSearch(t, engine, c, text.Text)
}

func checkProduct(t *testing.T, engine search.Engine, c toolCase, body string) {
	t.Helper()
	var p struct {
		ID     string `json:"id"`
		Offers []struct {
			ID string `json:"id"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatal(err)
	}
	if p.ID != c.Want.Product {
		t.Errorf("product id %q, want %q", p.ID, c.Want.Product)
	}
	var offers []string
	for _, o := range p.Offers {
		offers = append(offers, o.ID)
	}
	if diff := cmp.Diff(c.Want.Offers, offers); diff != "" {
		t.Errorf("offers mismatch (-want +got):\n%s", diff)
	}
	// The body is the REST product-detail response.
	prod, err := engine.Product(context.Background(), c.Want.Product)
	if err != nil {
		t.Fatal(err)
	}
	if want := string(search.AppendProduct(nil, prod)); body != want {
		t.Errorf("body differs from the REST response (-want +got):\n%s", cmp.Diff(want, body))
	}
}

func checkSearch(t *testing.T, engine search.Engine, c toolCase, body string) {
	t.Helper()
	var r struct {
		Products []struct {
			ID               string            `json:"id"`
			ConstraintStatus map[string]string `json:"constraint_status"`
			Attributes       map[string]any    `json:"attributes"`
			Offers           []any             `json:"offers"`
		} `json:"products"`
		Total                 int             `json:"total"`
		UnverifiedTotal       *int            `json:"unverified_total"`
		ExcludedByConstraints *int            `json:"excluded_by_constraints"`
		Constraints           json.RawMessage `json:"constraints"`
	}
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	status := map[string]map[string]string{}
	for _, p := range r.Products {
		ids = append(ids, p.ID)
		if p.ConstraintStatus != nil {
			status[p.ID] = p.ConstraintStatus
		}
	}
	want := slices.Clone(c.Want.IDs)
	if !c.Want.Ordered {
		slices.Sort(want)
		slices.Sort(ids)
	}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("products mismatch (-want +got):\n%s", diff)
	}
	if c.Want.Total != nil && r.Total != *c.Want.Total {
		t.Errorf("total %d, want %d", r.Total, *c.Want.Total)
	}
	for _, n := range []struct {
		name      string
		want, got *int
	}{{"unverified_total", c.Want.UnverifiedTotal, r.UnverifiedTotal}, {"excluded_by_constraints", c.Want.ExcludedByConstraints, r.ExcludedByConstraints}} {
		switch {
		case n.want == nil && n.got != nil && c.Want.ConstraintStatus == nil:
			t.Errorf("%s = %d present without constraints", n.name, *n.got)
		case n.want != nil && n.got == nil:
			t.Errorf("%s absent, want %d", n.name, *n.want)
		case n.want != nil && *n.got != *n.want:
			t.Errorf("%s %d, want %d", n.name, *n.got, *n.want)
		}
	}
	if c.Want.ConstraintStatus != nil {
		if diff := cmp.Diff(c.Want.ConstraintStatus, status); diff != "" {
			t.Errorf("constraint_status mismatch (-want +got):\n%s", diff)
		}
	}
	if c.Want.MatchedFirst {
		seenUnverified := false
		for _, p := range r.Products {
			matched := true
			for _, s := range p.ConstraintStatus {
				matched = matched && s == search.StatusMatched
			}
			if matched && seenUnverified {
				t.Errorf("matched product %s after an unverified one", p.ID)
			}
			seenUnverified = seenUnverified || !matched
		}
	}
	// The body is exactly the REST search response of the same request.
	req, err := decodeSearchArgs(c.Args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := engine.Search(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if want := string(res.AppendJSON(nil)); body != want {
		t.Errorf("body differs from the REST response (-want +got):\n%s", cmp.Diff(want, body))
	}
	// lite is the default: no offers unless lite is false.
	var args map[string]any
	_ = json.Unmarshal(c.Args, &args)
	lite := args[search.ParamLite] != false
	for _, p := range r.Products {
		if lite == (p.Offers != nil) {
			t.Errorf("product %s: offers present = %v with lite %v", p.ID, p.Offers != nil, lite)
		}
	}
}

func TestListTools(t *testing.T) {
	cs := connectInMemory(t, NewServer(fixtureEngine(t), Options{}))
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		t.Run(tool.Name, func(t *testing.T) {
			if tool.Title == "" || tool.Annotations == nil || tool.Annotations.Title == "" {
				t.Errorf("title %q, annotations %+v: want titles set", tool.Title, tool.Annotations)
			}
			a := tool.Annotations
			if !a.ReadOnlyHint || !a.IdempotentHint || a.DestructiveHint == nil || *a.DestructiveHint ||
				a.OpenWorldHint == nil || *a.OpenWorldHint {
				t.Errorf("annotations %+v: want read-only, idempotent, not destructive, closed world", a)
			}
			in := schemaMap(t, tool.InputSchema)
			if in["type"] != "object" || in["additionalProperties"] != false {
				t.Errorf("input schema: type %v, additionalProperties %v; want object and false", in["type"], in["additionalProperties"])
			}
			resolve(t, tool.InputSchema)
			resolve(t, tool.OutputSchema)
			for name, p := range in["properties"].(map[string]any) {
				if d, _ := p.(map[string]any)["description"].(string); len(d) < 20 {
					t.Errorf("property %s has no useful description: %q", name, d)
				}
			}
		})
	}
	if diff := cmp.Diff([]string{ToolGetProduct, ToolSearchProducts}, names); diff != "" {
		t.Errorf("tools mismatch (-want +got):\n%s", diff)
	}
}

func schemaMap(t *testing.T, schema any) map[string]any {
	t.Helper()
	b, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSearchInputSchema checks the advertised enums and names against the
// catalog's.
func TestSearchInputSchema(t *testing.T) {
	props := schemaMap(t, searchInputSchema(catalog.DefaultAttributes()))["properties"].(map[string]any)
	var gotNames []string
	for name := range props {
		gotNames = append(gotNames, name)
	}
	wantNames := searchArgNames()
	slices.Sort(wantNames)
	slices.Sort(gotNames)
	if diff := cmp.Diff(wantNames, gotNames); diff != "" {
		t.Errorf("argument names mismatch (-want +got):\n%s", diff)
	}
	var cats []string
	for _, c := range props[search.ParamCategory].(map[string]any)["enum"].([]any) {
		cats = append(cats, c.(string))
	}
	if diff := cmp.Diff(catalog.Categories(), cats); diff != "" {
		t.Errorf("category enum mismatch (-want +got):\n%s", diff)
	}
	cons := props[search.ParamConstraints].(map[string]any)
	var attrs []string
	for name, b := range cons["properties"].(map[string]any) {
		attrs = append(attrs, name)
		bound := b.(map[string]any)
		if bound["additionalProperties"] != false || len(bound["properties"].(map[string]any)) != 3 {
			t.Errorf("constraint %s: want eq, gte, lte and nothing else; got %v", name, bound)
		}
	}
	slices.Sort(attrs)
	wantAttrs := catalog.AttributeNames()
	slices.Sort(wantAttrs)
	if diff := cmp.Diff(wantAttrs, attrs); diff != "" {
		t.Errorf("constraint names mismatch (-want +got):\n%s", diff)
	}
	if cons["additionalProperties"] != false {
		t.Errorf("constraints additionalProperties %v, want false", cons["additionalProperties"])
	}
}

// TestUnknownTool checks the protocol error the 2025-11-25 specification
// prescribes for an unknown tool: JSON-RPC invalid params (-32602).
func TestUnknownTool(t *testing.T) {
	cs := connectInMemory(t, NewServer(fixtureEngine(t), Options{}))
	_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "search", Arguments: map[string]any{}})
	var rpcErr interface{ Error() string }
	if err == nil || !errors.As(err, &rpcErr) {
		t.Fatalf("err = %v, want a JSON-RPC error", err)
	}
	if !strings.Contains(err.Error(), `unknown tool "search"`) {
		t.Errorf("err = %v, want unknown tool", err)
	}
}

// TestEngineFailure checks that an engine failure reaches the model as a
// retry message without internal detail.
func TestEngineFailure(t *testing.T) {
	cs := connectInMemory(t, NewServer(failingEngine{}, Options{}))
	for _, call := range []sdk.CallToolParams{
		{Name: ToolSearchProducts, Arguments: map[string]any{"category": "Laptops"}},
		{Name: ToolGetProduct, Arguments: map[string]any{"product_id": "x"}},
	} {
		res, err := cs.CallTool(context.Background(), &call)
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(*sdk.TextContent).Text
		if !res.IsError || text != errBackendUnavailable.Error() {
			t.Errorf("%s: isError %v, text %q; want %q", call.Name, res.IsError, text, errBackendUnavailable)
		}
	}
}

type failingEngine struct{}

func (failingEngine) Search(context.Context, search.Request) (*search.Result, error) {
	return nil, errors.New("dial tcp 10.0.0.1:9200: connection refused")
}

func (failingEngine) Product(context.Context, string) (*catalog.Product, error) {
	return nil, errors.New("dial tcp 10.0.0.1:9200: connection refused")
}

func (failingEngine) Health(context.Context) (search.Health, error) {
	return search.Health{}, errors.New("down")
}
