package bench

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// everyTitle is a term indexed in every title, so that an FTS5 query whose
// words only rank can still match every row ("... OR everyTitle"). Title
// terms are letters and digits, so it cannot be one.
const everyTitle = "qq_every_title"

// sqliteIndex is an in-memory SQLite database: a products table and an
// FTS5 table over title terms sharing its row ids.
type sqliteIndex struct {
	db    *sql.DB
	mu    sync.Mutex
	stmts map[string]*sql.Stmt // prepared statements by SQL text
}

// NewSQLite indexes the snapshot in an in-memory SQLite database: a
// products table (document number as rowid, id, brand folded as
// catalog.NormalizeBrand, category, price, offer count, product type and
// one REAL column per attribute, NULL when absent or conflicting) with
// indexes on (category, price), (brand, price) and price, and an FTS5
// table "titles" holding the title's search terms (ascii tokenizer, '.'
// kept inside tokens) under the same rowid. After loading, the FTS index
// is optimised into one segment and the tables are analysed.
func NewSQLite(s *catalog.Snapshot) (*Peer, error) {
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return nil, fmt.Errorf("sqlite: open: %w", err)
	}
	// An in-memory database lives as long as its one connection.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	x := &sqliteIndex{db: db, stmts: map[string]*sql.Stmt{}}
	if err := x.load(s); err != nil {
		db.Close()
		return nil, err
	}
	return &Peer{name: "sqlite", products: s.Products, be: x, maxCand: search.DefaultMaxCandidates,
		attrs: catalog.DefaultAttributes()}, nil
}

func (x *sqliteIndex) load(s *catalog.Snapshot) error {
	ctx := context.Background()
	names := catalog.AttributeNames()
	cols := make([]string, len(names))
	for i, n := range names {
		cols[i] = n + " REAL"
	}
	for _, stmt := range []string{
		"PRAGMA journal_mode = OFF",
		"PRAGMA synchronous = OFF",
		"PRAGMA temp_store = MEMORY",
		"PRAGMA cache_size = -262144",
		"CREATE TABLE products (doc INTEGER PRIMARY KEY, id TEXT NOT NULL, brand TEXT NOT NULL, category TEXT NOT NULL, " +
			"price REAL NOT NULL, offers INTEGER NOT NULL, tier INTEGER NOT NULL, " + strings.Join(cols, ", ") + ")",
		`CREATE VIRTUAL TABLE titles USING fts5(terms, tokenize = "ascii tokenchars '._'")`,
	} {
		if _, err := x.db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("sqlite: %s: %w", stmt, err)
		}
	}
	tx, err := x.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: begin: %w", err)
	}
	defer tx.Rollback()
	insProduct, err := tx.PrepareContext(ctx, "INSERT INTO products VALUES (?, ?, ?, ?, ?, ?, ?"+strings.Repeat(", ?", len(names))+")")
	if err != nil {
		return fmt.Errorf("sqlite: prepare: %w", err)
	}
	insTitle, err := tx.PrepareContext(ctx, "INSERT INTO titles (rowid, terms) VALUES (?, ?)")
	if err != nil {
		return fmt.Errorf("sqlite: prepare: %w", err)
	}
	args := make([]any, 7+len(names))
	for i := range s.Products {
		p := &s.Products[i]
		args[0], args[1], args[2], args[3] = i, p.ID, catalog.NormalizeBrand(p.Brand), p.Category
		args[4], args[5], args[6] = p.Price, p.OfferCount, tier(p)
		for j, n := range names {
			args[7+j] = nil
			if a, ok := p.Attributes[n]; ok && a.Status != catalog.Conflicting {
				args[7+j] = a.Value
			}
		}
		if _, err := insProduct.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("sqlite: insert %s: %w", p.ID, err)
		}
		if _, err := insTitle.ExecContext(ctx, i, titleText(p.Title)+" "+everyTitle); err != nil {
			return fmt.Errorf("sqlite: insert title of %s: %w", p.ID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: commit: %w", err)
	}
	for _, stmt := range []string{
		"CREATE INDEX products_category ON products (category, price)",
		"CREATE INDEX products_brand ON products (brand, price)",
		"CREATE INDEX products_price ON products (price)",
		"INSERT INTO titles (titles) VALUES ('optimize')",
		"ANALYZE",
	} {
		if _, err := x.db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("sqlite: %s: %w", stmt, err)
		}
	}
	return nil
}

func (x *sqliteIndex) close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	var errs []error
	for _, st := range x.stmts {
		errs = append(errs, st.Close())
	}
	errs = append(errs, x.db.Close())
	return errors.Join(errs...)
}

// stmt returns the prepared statement for text, preparing it once.
func (x *sqliteIndex) stmt(ctx context.Context, text string) (*sql.Stmt, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if st, ok := x.stmts[text]; ok {
		return st, nil
	}
	st, err := x.db.PrepareContext(ctx, text)
	if err != nil {
		return nil, fmt.Errorf("sqlite: prepare %s: %w", text, err)
	}
	x.stmts[text] = st
	return st, nil
}

// fetch translates the plan to a SELECT of one page: an FTS5 MATCH of the
// required terms (and, when relevance ranks by them, the ranking-only terms
// OR'd with a term every title holds), joined to products filtered by
// category, brand and price, ordered by the request's order (bm25 for the
// score). A second SELECT counts the candidates unless the page shows they
// are all on it. (One statement counting with a window function,
// count(*) OVER (), is slower: it sorts every candidate instead of keeping
// the best of the page.)
func (x *sqliteIndex) fetch(ctx context.Context, p *search.Plan, from, size int) ([]int32, int, error) {
	text, args := sqliteQuery(p)
	st, err := x.stmt(ctx, text)
	if err != nil {
		return nil, 0, err
	}
	rows, err := st.QueryContext(ctx, append(args, size, from)...)
	if err != nil {
		return nil, 0, fmt.Errorf("sqlite: query: %w", err)
	}
	defer rows.Close()
	var docs []int32
	for rows.Next() {
		var doc int32
		if err := rows.Scan(&doc); err != nil {
			return nil, 0, fmt.Errorf("sqlite: scan: %w", err)
		}
		docs = append(docs, doc)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("sqlite: rows: %w", err)
	}
	total := len(docs)
	if from > 0 || len(docs) == size {
		text, args := sqliteCount(p)
		st, err := x.stmt(ctx, text)
		if err != nil {
			return nil, 0, err
		}
		if err := st.QueryRowContext(ctx, args...).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("sqlite: count: %w", err)
		}
	}
	return docs, total, nil
}

// sqliteWhere writes the FROM and WHERE clauses of a plan; for counting,
// only what selects candidates.
func sqliteWhere(p *search.Plan, b *strings.Builder, count bool) (args []any, fts bool) {
	sh := shapeOf(p)
	if count {
		sh.scored = false
	}
	r := &p.Request
	var match []string
	for _, t := range sh.required {
		match = append(match, ftsTerm(t))
	}
	if sh.scored && len(sh.rankOnly) > 0 {
		alt := make([]string, 0, len(sh.rankOnly)+1)
		for _, t := range sh.rankOnly {
			alt = append(alt, ftsTerm(t))
		}
		match = append(match, "("+strings.Join(append(alt, `"`+everyTitle+`"`), " OR ")+")")
	}
	switch {
	case len(match) > 0 && sh.scored:
		// bm25 needs the FTS table scanned by its MATCH: score the
		// matches first, then join.
		fts = true
		b.WriteString(" FROM (SELECT rowid AS doc, bm25(titles) AS score FROM titles WHERE titles MATCH ?) AS matches" +
			" JOIN products ON products.doc = matches.doc WHERE 1")
		args = append(args, strings.Join(match, " AND "))
	case len(match) > 0:
		b.WriteString(" FROM titles JOIN products ON products.doc = titles.rowid WHERE titles MATCH ?")
		args = append(args, strings.Join(match, " AND "))
	default:
		b.WriteString(" FROM products WHERE 1")
	}
	if r.Category != "" {
		b.WriteString(" AND products.category = ?")
		args = append(args, r.Category)
	}
	if r.Brand != "" {
		b.WriteString(" AND products.brand = ?")
		args = append(args, catalog.NormalizeBrand(r.Brand))
	}
	if r.MinPrice != nil {
		b.WriteString(" AND products.price >= ?")
		args = append(args, *r.MinPrice)
	}
	if r.MaxPrice != nil {
		b.WriteString(" AND products.price <= ?")
		args = append(args, *r.MaxPrice)
	}
	return args, fts
}

func sqliteQuery(p *search.Plan) (string, []any) {
	var b strings.Builder
	b.WriteString("SELECT products.doc")
	args, fts := sqliteWhere(p, &b, false)
	sh := shapeOf(p)
	switch p.Request.Sort {
	case search.SortPriceAsc:
		b.WriteString(" ORDER BY products.price, products.id")
	case search.SortPriceDesc:
		b.WriteString(" ORDER BY products.price DESC, products.id")
	default:
		b.WriteString(" ORDER BY ")
		if sh.tier {
			b.WriteString("products.tier, ")
		}
		if sh.scored && fts {
			b.WriteString("matches.score, ")
		}
		b.WriteString("products.offers DESC, products.price, products.id")
	}
	b.WriteString(" LIMIT ? OFFSET ?")
	return b.String(), args
}

func sqliteCount(p *search.Plan) (string, []any) {
	var b strings.Builder
	b.WriteString("SELECT count(*)")
	args, _ := sqliteWhere(p, &b, true)
	return b.String(), args
}

// ftsTerm matches a query word in titles: its joined form, or every part
// of a hyphenated word. Terms are letters, digits and dots, safe inside
// FTS5 string literals.
func ftsTerm(t search.Term) string {
	q := `"` + t.Text + `"`
	if len(t.Parts) == 0 {
		return q
	}
	return "(" + q + ` OR ("` + strings.Join(t.Parts, `" AND "`) + `"))`
}
