// Package sarif holds an end-to-end test of lockgap's SARIF output: it
// builds lockgap, runs it with -sarif on the module in testdata/fixture
// and validates the log against the SARIF 2.1.0 JSON schema. It is a
// module of its own so that the schema validator stays out of lockgap's
// dependencies.
package sarif
