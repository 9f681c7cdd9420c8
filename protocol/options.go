package protocol

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
)

// Option types, as "uci" reports them.
const (
	typeCombo  = "combo"
	typeSpin   = "spin"
	typeButton = "button"
	typeCheck  = "check"
)

// An option is one engine option: how "uci" shows it and how setoption
// applies a value. apply checks the value and either changes the engine's
// state whole or returns an error and changes nothing.
type option struct {
	name     string
	kind     string
	def      string   // default (combo, spin, check)
	vars     []string // values (combo)
	min, max int      // range (spin)
	apply    func(s *server, value string) error
}

// options lists the engine's options in the order "uci" shows them.
func (s *server) options() []option {
	eloLo, eloHi := search.SkillEloRange()
	return []option{
		{name: "UCI_Variant", kind: typeCombo, def: board.NameKatro, vars: board.Names(), apply: (*server).setVariant},
		{name: hashOption, kind: typeSpin, def: strconv.Itoa(min(search.DefaultHashMiB, s.cfg.MaxHashMiB)),
			min: search.MinHashMiB, max: s.cfg.MaxHashMiB, apply: (*server).setHash},
		{name: "Clear Hash", kind: typeButton, apply: (*server).clearHash},
		{name: "Threads", kind: typeSpin, def: strconv.Itoa(search.DefaultThreads),
			min: search.MinThreads, max: search.MaxThreads, apply: (*server).setThreads},
		{name: "Move Overhead", kind: typeSpin, def: strconv.Itoa(defaultOverheadMs),
			min: 0, max: maxOverheadMs, apply: (*server).setOverhead},
		{name: "MultiPV", kind: typeSpin, def: "1", min: 1, max: board.MaxMoves, apply: (*server).setMultiPV},
		{name: "Ponder", kind: typeCheck, def: "false", apply: (*server).setPonder},
		{name: "UCI_ShowWDL", kind: typeCheck, def: "false", apply: (*server).setShowWDL},
		{name: "Skill Level", kind: typeSpin, def: strconv.Itoa(search.FullSkill),
			min: search.MinSkill, max: search.FullSkill, apply: (*server).setSkill},
		{name: "UCI_LimitStrength", kind: typeCheck, def: "false", apply: (*server).setLimitStrength},
		{name: "UCI_Elo", kind: typeSpin, def: strconv.Itoa(eloDefault()), min: eloLo, max: eloHi, apply: (*server).setElo},
		{name: "CaptureSide", kind: typeCombo, def: board.CaptureAny.String(),
			vars: []string{board.CaptureAny.String(), board.CaptureOpponent.String()}, apply: (*server).setCaptureSide},
		{name: "LastFour", kind: typeCombo, def: board.LastFourCapturer.String(),
			vars:  []string{board.LastFourCapturer.String(), board.LastFourSouth.String(), board.LastFourNorth.String()},
			apply: (*server).setLastFour},
		{name: "Repetition", kind: typeCombo, def: board.RepetitionThreefold.String(),
			vars: []string{board.RepetitionThreefold.String(), board.RepetitionOff.String()}, apply: (*server).setRepetition},
		{name: "NoCaptureLimit", kind: typeSpin, def: strconv.Itoa(board.DefaultNoCaptureLimit),
			min: 0, max: board.MaxNoCaptureLimit, apply: (*server).setNoCaptureLimit},
		{name: "TablePath", kind: typeString, def: emptyString, apply: (*server).setTablePath},
		{name: "TableEstimate", kind: typeCheck, def: "true", apply: (*server).setTableEstimate},
		{name: "Prover", kind: typeCheck, def: "false", apply: (*server).setProver},
		{name: "ProverThread", kind: typeCheck, def: "false", apply: (*server).setProverThread},
		{name: "ProofBook", kind: typeCheck, def: "true", apply: (*server).setProofBook},
		{name: "EvalType", kind: typeCombo, def: evalAuto, vars: []string{evalAuto, evalLinear, evalNet}, apply: (*server).setEvalType},
		{name: "EvalFile", kind: typeString, def: emptyString, apply: (*server).setEvalFile},
		{name: "EvalLazy", kind: typeSpin, def: strconv.Itoa(search.DefaultNetLazy), min: 0, max: search.MaxNetLazy, apply: (*server).setEvalLazy},
	}
}

// line returns the option as "uci" shows it.
func (o *option) line() string {
	s := "option name " + o.name + " type " + o.kind
	switch o.kind {
	case typeCombo:
		s += " default " + o.def
		for _, v := range o.vars {
			s += " var " + v
		}
	case typeSpin:
		s += fmt.Sprintf(" default %s min %d max %d", o.def, o.min, o.max)
	case typeCheck, typeString:
		s += " default " + o.def
	}
	return s
}

// check reads a value for the option: a known combo value (any case; the
// canonical spelling is returned) or an integer in the spin's range.
func (o *option) check(value string) (string, int, error) {
	switch o.kind {
	case typeCombo:
		for _, v := range o.vars {
			if strings.EqualFold(v, value) {
				return v, 0, nil
			}
		}
		if value == "" {
			return "", 0, fmt.Errorf("%s needs a value: one of %s", o.name, strings.Join(o.vars, ", "))
		}
		return "", 0, fmt.Errorf("%s: %s is not one of %s", o.name, quote(value), strings.Join(o.vars, ", "))
	case typeSpin:
		if value == "" {
			return "", 0, fmt.Errorf("%s needs a value: an integer from %d to %d", o.name, o.min, o.max)
		}
		n, err := strconv.Atoi(value)
		if err != nil || n < o.min || n > o.max {
			return "", 0, fmt.Errorf("%s: %s is not an integer from %d to %d", o.name, quote(value), o.min, o.max)
		}
		return value, n, nil
	case typeCheck:
		for _, v := range []string{"true", "false"} {
			if strings.EqualFold(v, value) {
				return v, 0, nil
			}
		}
		return "", 0, fmt.Errorf("%s: %s is not true or false", o.name, quote(value))
	}
	return value, 0, nil
}

func (s *server) cmdUCI(args []string) error { return s.identify(false, "uciok") }
func (s *server) cmdUGI(args []string) error { return s.identify(true, "ugiok") }

// identify answers "uci" and "ugi": the engine's name and author, its
// options, and ok; the dialect (UGI if ugi) holds from the answer on, for
// a search already running too.
func (s *server) identify(ugi bool, ok string) error {
	lines := []string{"id name Sower " + Version, "id author " + Author}
	for _, o := range s.options() {
		lines = append(lines, o.line())
	}
	s.out.handshake(ugi, append(lines, ok)...)
	return nil
}

// cmdSetOption is "setoption name <name> [value <value>]". Names and combo
// values are matched in any case; a name or value of several words is
// matched with single spaces between them.
func (s *server) cmdSetOption(args []string) error {
	if len(args) == 0 || !strings.EqualFold(args[0], "name") {
		return errors.New(`want "setoption name <name> [value <value>]"`)
	}
	args = args[1:]
	i := 0
	for i < len(args) && !strings.EqualFold(args[i], "value") {
		i++
	}
	name := strings.Join(args[:i], " ")
	value := ""
	if i < len(args) {
		value = strings.Join(args[i+1:], " ")
	}
	if name == "" {
		return errors.New("no option name given")
	}
	for _, o := range s.options() {
		if !strings.EqualFold(o.name, name) {
			continue
		}
		v, _, err := o.check(value)
		if err != nil {
			return err
		}
		return o.apply(s, v)
	}
	return fmt.Errorf("unknown option %s", quote(name))
}

// setVariant switches to another game at its start position (same rule
// options) and reports it; the same variant again only reports it.
func (s *server) setVariant(name string) error {
	if name != s.variant.Name() {
		v, err := newVariant(name, s.rules)
		if err != nil {
			return err
		}
		s.stopJob()
		s.variant = v
		s.game = board.NewGame(v.Start())
		if s.eng != nil {
			s.eng.ClearHash()
		}
	}
	s.loadBook()
	s.out.info("variant " + s.variant.Name() + " startpos " + s.variant.Start().String())
	return nil
}

// hashOption is the name of the option that sets the table's size, with
// which its errors start, as every option's do.
const hashOption = "Hash"

// setHash sets the table's size. A size the machine cannot hold now is
// refused before anything changes: the running search and the old table
// are kept.
func (s *server) setHash(value string) error {
	n, _ := strconv.Atoi(value) // checked
	if n == s.hashMiB {
		return nil
	}
	if avail, ok := s.cfg.AvailableMiB(); ok {
		if err := search.CheckHashMemory(n, avail); err != nil {
			return fmt.Errorf("%s: %v; %s stays %d", hashOption, err, hashOption, s.hashMiB)
		}
	}
	s.stopJob()
	if s.eng != nil {
		if err := s.eng.SetHash(n); err != nil {
			return fmt.Errorf("%s: %v; %s stays %d", hashOption, err, hashOption, s.hashMiB)
		}
	}
	s.hashMiB = n
	return nil
}

func (s *server) clearHash(string) error {
	s.stopJob()
	if s.eng != nil {
		s.eng.ClearHash()
	}
	return nil
}

func (s *server) setOverhead(value string) error {
	n, _ := strconv.Atoi(value) // checked
	s.stopJob()                 // a running search keeps the overhead it started with
	s.overhead = time.Duration(n) * time.Millisecond
	return nil
}

// setThreads sets the number of threads of the next searches; a running
// search keeps its own.
//
// Each search thread is a goroutine. With more threads than the Go
// runtime runs at once (GOMAXPROCS, the number of cores by default), they
// would take turns in slices of about 10 ms each, and the goroutine that
// reads the commands would wait its turn behind all of them (isready and
// stop took seconds with hundreds of threads on 2 cores). So the runtime
// is allowed one more than the threads, like an engine with an operating
// system thread per search thread: the system shares the cores among them
// and wakes the command reader at once. It is never lowered; setting it
// also ends the runtime's own updates of GOMAXPROCS to the cores the
// process may use.
func (s *server) setThreads(value string) error {
	s.threads, _ = strconv.Atoi(value) // checked
	if n := s.threads + 1; n > runtime.GOMAXPROCS(0) {
		runtime.GOMAXPROCS(n)
	}
	return nil
}

// setPonder accepts the Ponder option, which tells GUIs that they may
// send "go ponder". Sower ponders whenever it is asked to, so the value
// (checked) changes nothing.
func (s *server) setPonder(string) error { return nil }

// setShowWDL sets whether the info lines of the next searches carry the
// win/draw/loss forecast; a running search keeps its own.
func (s *server) setShowWDL(value string) error {
	s.showWDL = value == "true"
	return nil
}

// setSkill, setLimitStrength and setElo set the strength of the next
// searches (see skillLimit); a running search keeps its own.
func (s *server) setSkill(value string) error {
	s.skill, _ = strconv.Atoi(value) // checked
	return nil
}

func (s *server) setLimitStrength(value string) error {
	s.limitStrength = value == "true"
	return nil
}

func (s *server) setElo(value string) error {
	s.elo, _ = strconv.Atoi(value) // checked
	return nil
}

// skillLimit returns the strength level of the next search, nil for full
// strength: with UCI_LimitStrength the level whose Elo on the game's
// calibrated ladder is nearest UCI_Elo (FullSkill too, which then plays
// as the ladder measured it, with the linear evaluation), else Skill
// Level below FullSkill. Each search gets a new seed.
func (s *server) skillLimit() *search.Skill {
	if !s.atLevel() {
		return nil
	}
	level := s.skill
	if s.limitStrength {
		level = search.SkillForElo(s.variant.Family(), s.elo)
	}
	s.seed++
	return &search.Skill{Level: level, Seed: s.seed}
}

// atLevel reports whether the searches play at a strength level
// (skillLimit), and so with the linear evaluation.
func (s *server) atLevel() bool {
	return s.limitStrength || s.skill < search.FullSkill
}

// levelTable empties the engine's table before a search when the last
// search was at full strength and this one is at a strength level, or the
// other way round, and a network plays the game: the two evaluate
// differently, and the table's scores came from the other evaluation (as
// after EvalType). It is done at "go", as the options that change the
// level apply from the next search.
func (s *server) levelTable(eng *search.Engine) {
	at := s.atLevel()
	if at != s.tableAtLevel && eng.Net(s.variant.Family()) != nil {
		eng.ClearHash()
	}
	s.tableAtLevel = at
}

// setMultiPV sets the number of lines the next searches report; a
// running search keeps its own.
func (s *server) setMultiPV(value string) error {
	s.multiPV, _ = strconv.Atoi(value) // checked
	return nil
}

func (s *server) setCaptureSide(value string) error {
	c, err := board.ParseCaptureSide(value)
	if err != nil {
		return err
	}
	r := s.rules
	r.CaptureSide = c
	return s.setRules("CaptureSide", r)
}

func (s *server) setLastFour(value string) error {
	l, err := board.ParseLastFour(value)
	if err != nil {
		return err
	}
	r := s.rules
	r.LastFour = l
	return s.setRules("LastFour", r)
}

// optRepetition is the Repetition option's name.
const optRepetition = "Repetition"

// setRepetition sets the Hoyito III Repetition option. Off is refused
// while the game is a Katro game, where the option does not apply, and
// with no no-capture limit, where nothing would end a game without
// captures.
func (s *server) setRepetition(value string) error {
	rep, err := board.ParseRepetition(value)
	if err != nil {
		return err
	}
	if rep == board.RepetitionOff && s.variant.Family() == board.Katro {
		return fmt.Errorf("%s: a Hoyito III option; %s is a Katro game", optRepetition, s.variant.Name())
	}
	if rep == board.RepetitionOff && s.rules.NoCaptureLimit == 0 {
		return fmt.Errorf("%s: off needs a no-capture limit, and NoCaptureLimit is 0 (none): nothing would end a game without captures; set NoCaptureLimit first; %[1]s stays threefold", optRepetition)
	}
	r := s.rules
	r.Repetition = rep
	return s.setRules("Repetition", r)
}

func (s *server) setNoCaptureLimit(value string) error {
	n, _ := strconv.Atoi(value) // checked
	if n == 0 && s.rules.Repetition == board.RepetitionOff {
		return fmt.Errorf("NoCaptureLimit: 0 (none) with Repetition off: nothing would end a game without captures; set Repetition threefold first; NoCaptureLimit stays %d", s.rules.NoCaptureLimit)
	}
	r := s.rules
	r.NoCaptureLimit = n
	return s.setRules("NoCaptureLimit", r)
}

// newVariant returns the named game under rules r. The Repetition option
// is Hoyito III's: a Katro game keeps the rule book's threefold
// repetition whatever r says (the option stays set for the next Hoyito
// III game).
func newVariant(name string, r board.Rules) (*board.Variant, error) {
	v, err := board.NewWithRules(name, r)
	if err == nil && v.Family() == board.Katro && r.Repetition != board.RepetitionThreefold {
		r.Repetition = board.RepetitionThreefold
		v, err = board.NewWithRules(name, r)
	}
	return v, err
}

// setRules changes the rule options. The current game is replayed under
// the new rules from its start position; if one of its moves is not legal
// under them (or the game ends sooner), the option is refused and nothing
// changes. With TablePath set, the tables for the new rules are opened
// here (see tablesFor), so that "go" finds them ready.
func (s *server) setRules(name string, r board.Rules) error {
	if r == s.rules {
		return nil
	}
	v, err := newVariant(s.variant.Name(), r)
	if err != nil {
		return err
	}
	g, err := replay(v, s.game)
	if err != nil {
		return fmt.Errorf("%s: the current game does not fit the new rules (%v); send ucinewgame or a position first", name, err)
	}
	tb, off := s.tablesFor(r) // before the search is stopped: it may take a while
	s.stopJob()
	s.rules, s.variant, s.game = r, v, g
	if s.eng != nil {
		s.eng.ClearHash() // stored scores were found under the old rules
	}
	changed := tb.set != s.tb.set
	s.swapTables(tb)
	switch {
	case off != nil:
		s.out.info("tables off: " + off.Error())
	case changed:
		s.reportTables()
	}
	return nil
}

// replay plays game g again in variant v: from the same start position,
// the same moves.
func replay(v *board.Variant, g *board.Game) (*board.Game, error) {
	start := g.Start()
	p, err := v.ParsePosition(start.String())
	if err != nil {
		return nil, fmt.Errorf("start position: %w", err)
	}
	ng := board.NewGame(p)
	if err := ng.PlayAll(g.Moves()); err != nil {
		return nil, err
	}
	return ng, nil
}
