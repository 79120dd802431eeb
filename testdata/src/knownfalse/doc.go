// Package knownfalse holds shapes lockgap reports that are not races in
// the programs they were found in (corpus/findings.tsv, verdict false).
// Each is minimised, in the fixtures' own words, and names the fact a
// per-package analysis lacks: which goroutine runs what, a lock held by
// callers in another package (through an interface, where the driver's
// module-wide step cannot follow), what the values mean, or a documented contract; or, in one (exporter), an
// imprecision of the engine's own that a per-package analysis could fix.
//
// The findings are expected (each has a want comment), so the test notices when a change
// silences one: move it then to the silent fixtures of its topic, with a
// reported twin.
package knownfalse
