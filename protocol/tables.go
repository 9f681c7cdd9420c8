package protocol

import (
	"fmt"
	"path/filepath"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/tables"
)

// typeString is the option type of free text such as a path.
const typeString = "string"

// emptyString is how UCI writes an empty string option's value.
const emptyString = "<empty>"

// tableState is the server's endgame tables: the directory set by the
// TablePath option and the set opened from it for the current rules, nil
// when the directory has none for them. The set is opened when TablePath
// or a rule option is set, never by "go", so that "isready" covers the
// file work and a timed search spends none of its time on it.
type tableState struct {
	path string
	set  *tables.Tables
}

// setTablePath opens the Hoyito III tables in a directory for the current
// rule options (an empty value or <empty> turns tables off). A directory
// without tables for these rules, or with a damaged file, is refused with
// the reason before anything is stopped: a running search goes on with the
// tables it has. The directory already open again only reports it, and a
// running search goes on too.
func (s *server) setTablePath(value string) error {
	if value == emptyString {
		value = ""
	}
	if value == "" {
		if s.tb.path != "" {
			s.stopJob()
			s.swapTables(tableState{})
		}
		return nil
	}
	if s.tb.set != nil && filepath.Clean(value) == filepath.Clean(s.tb.path) {
		s.reportTables()
		return nil
	}
	t, err := tables.Open(value, s.rules)
	if err != nil {
		return fmt.Errorf("TablePath: %v", err)
	}
	s.stopJob()
	s.swapTables(tableState{path: value, set: t})
	s.reportTables()
	return nil
}

// setTableEstimate says whether searches under Repetition threefold score
// the table positions their bounds leave open with the tables' exact value
// under Repetition off (search.Engine.SetTableEstimate). It waits for a
// running search to end.
func (s *server) setTableEstimate(value string) error {
	s.stopJob()
	s.noEstimate = value == "false"
	if s.eng != nil {
		s.eng.SetTableEstimate(!s.noEstimate)
	}
	return nil
}

// setProver turns the Katro prover on or off (search.Engine.SetProver).
// It waits for a running search to end.
func (s *server) setProver(value string) error {
	s.stopJob()
	s.prover = value == "true"
	if s.eng != nil {
		s.eng.SetProver(s.prover)
	}
	return nil
}

// setProverThread gives the prover a thread of its own, or not
// (search.Engine.SetProverThread). It waits for a running search to end.
func (s *server) setProverThread(value string) error {
	s.stopJob()
	s.proverThread = value == "true"
	if s.eng != nil {
		s.eng.SetProverThread(s.proverThread)
	}
	return nil
}

// reportTables prints the open set: "tables <dir>: <options>, up to <n>
// seeds".
func (s *server) reportTables() {
	s.out.info(fmt.Sprintf("tables %s: %s, up to %d seeds", s.tb.path, s.tb.set.Options(), s.tb.set.Top()))
}

// tablesFor returns the tables for rules r, opening them from TablePath
// when the open set does not serve r; the current state is not changed.
// When the directory has none for r (or a damaged file), the state has no
// set and off says why. CaptureSide, LastFour and the no-capture limit
// choose the set; one set serves both settings of Repetition.
func (s *server) tablesFor(r board.Rules) (tb tableState, off error) {
	tb = s.tb
	if tb.path == "" || (r.CaptureSide == s.rules.CaptureSide && r.LastFour == s.rules.LastFour && r.NoCaptureLimit == s.rules.NoCaptureLimit) {
		return tb, nil
	}
	if tb.set != nil && tb.set.For(r) {
		return tb, nil
	}
	t, err := tables.Open(tb.path, r)
	tb.set = t
	return tb, err
}

// swapTables makes tb the server's tables and the engine's, closing the
// set it replaces. No job may be running (see stopJob): a search probes
// the set it was given until it ends.
func (s *server) swapTables(tb tableState) {
	if s.tb.set != nil && s.tb.set != tb.set {
		if s.eng != nil {
			s.eng.SetTables(nil)
		}
		s.tb.set.Close()
	}
	s.tb = tb
	if s.eng != nil {
		s.eng.SetTables(tb.set)
	}
}
