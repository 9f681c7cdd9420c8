package protocol

import (
	"fmt"

	"github.com/sower-engine/sower/tables"
)

// typeString is the option type of free text such as a path.
const typeString = "string"

// emptyString is how UCI writes an empty string option's value.
const emptyString = "<empty>"

// tableState is the server's endgame tables: the directory set by the
// TablePath option and the set opened from it for the current rules.
type tableState struct {
	path string
	set  *tables.Tables
}

// setTablePath opens the Hoyito III tables in a directory for the current
// rule options (an empty value or <empty> turns tables off). A directory
// without tables for these rules, or with a damaged file, is refused with
// the reason.
func (s *server) setTablePath(value string) error {
	if value == emptyString {
		value = ""
	}
	s.stopJob()
	if value == "" {
		s.closeTables()
		s.tb.path = ""
		s.syncTables()
		return nil
	}
	t, err := tables.Open(value, s.rules)
	if err != nil {
		return fmt.Errorf("TablePath: %v", err)
	}
	s.closeTables()
	s.tb = tableState{path: value, set: t}
	s.out.info(fmt.Sprintf("tables %s: %s, up to %d seeds", value, t.Options(), t.Top()))
	s.syncTables()
	return nil
}

// closeTables releases the open tables, if any, and takes them from the
// engine.
func (s *server) closeTables() {
	if s.tb.set != nil {
		if s.eng != nil {
			s.eng.SetTables(nil)
		}
		s.tb.set.Close()
		s.tb.set = nil
	}
}

// syncTables gives the engine the tables for the current rules, reopening
// them from TablePath when the rules changed. It is called before each
// search; a failure to reopen turns tables off with a message.
func (s *server) syncTables() {
	if s.tb.path != "" && (s.tb.set == nil || !s.tb.set.For(s.rules)) {
		s.closeTables()
		t, err := tables.Open(s.tb.path, s.rules)
		if err != nil {
			s.out.info("tables off: " + err.Error())
		} else {
			s.tb.set = t
		}
	}
	if s.eng != nil {
		s.eng.SetTables(s.tb.set)
	}
}
