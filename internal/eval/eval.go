// Package eval measures the catalog pipeline (matching, extraction and
// classification) on labelled data written elsewhere: the entity-matching
// pair benchmarks, offers labelled with their true product, titles labelled
// with the attributes they state, and listings labelled with their
// category.
//
// Each evaluation reads its file, runs the same code the indexer runs
// (classify.Listing, extract.Title, match.Group and the pair decision
// match.Matcher.Compare), and returns counts and rates that Output prints as
// a table or as one JSON object.
package eval
