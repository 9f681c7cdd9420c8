package gui

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sower-engine/sower/internal/atomicfile"
)

// keepGames is how long a game that no tab shows is kept: a week after a
// tab last showed it.
const keepGames = 7 * 24 * time.Hour

// maxGames bounds the games kept besides those a tab shows: past it, the
// ones a tab showed longest ago are dropped first.
const maxGames = 100

// maxStateBytes bounds a game's state file; a larger one is refused.
const maxStateBytes = 32 << 20

// saveEvery is how often a session saves its game's state while it
// changes (and once more when it ends).
const saveEvery = time.Second

// pruneEvery is how often the store drops the games kept too long.
const pruneEvery = time.Hour

// store keeps the games by their session id: the session that serves a
// game to its tab, and the game's last saved state, in memory and, with
// a directory, in a file of its own there (dir/ID.json, written whole
// through atomicfile), so that a reload, a reconnection or a restart of
// the server finds the game as it stood.
type store struct {
	dir  string        // "" keeps the states in memory only
	keep time.Duration // a game no tab has shown for this long is dropped
	max  int           // at most this many games kept besides the live ones
	note func(format string, a ...any)

	mu    sync.Mutex
	games map[string]*entry
	grew  bool // a game was kept for the first time since the last prune
	bad   bool // a write failed, noted; cleared by the next that works

	once    sync.Once
	kick    chan struct{} // wakes the writer
	stop    chan struct{} // closed to end the writer
	stopped chan struct{} // closed when the writer has ended
	disk    sync.Mutex    // held while files are written or removed
}

// entry is one game of the store (its fields under store.mu, but turn).
type entry struct {
	id    string
	turn  sync.Mutex // held by the tab taking the game, while it does
	live  *session   // the session serving the game, if a tab shows it
	users int        // tabs taking the game
	saved []byte     // the last state saved, nil once it is only on disk
	ver   int        // counts the saves
	disk  int        // the save in the file (ver), -1 for a file found there
	kept  bool       // a state is kept, in memory or on disk
	seen  time.Time  // when a tab last showed the game
}

func newStore(dir string, note func(format string, a ...any)) *store {
	return &store{
		dir: dir, keep: keepGames, max: maxGames, note: note,
		games: map[string]*entry{},
		kick:  make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{}),
	}
}

// validID reports whether id can name a game: 32 lowercase hex digits, so
// that it is a file name and nothing else.
func validID(id string) bool {
	return len(id) == 32 && strings.Trim(id, "0123456789abcdef") == ""
}

// path is the file of a game's state.
func (st *store) path(id string) string {
	return filepath.Join(st.dir, id+".json")
}

// start starts the writer once: it writes the states saved and drops the
// games kept too long.
func (st *store) start() {
	st.once.Do(func() {
		go func() {
			defer close(st.stopped)
			st.prune(time.Now())
			tick := time.NewTicker(pruneEvery)
			defer tick.Stop()
			for {
				select {
				case <-st.kick:
					st.flush()
					st.mu.Lock()
					grew := st.grew
					st.grew = false
					st.mu.Unlock()
					if grew {
						st.prune(time.Now())
					}
				case <-tick.C:
					st.prune(time.Now())
				case <-st.stop:
					return
				}
			}
		}()
	})
}

// close ends the writer and writes what is left.
func (st *store) close() {
	st.once.Do(func() { close(st.stopped) }) // never started: nothing to wait for
	select {
	case <-st.stop:
	default:
		close(st.stop)
	}
	<-st.stopped
	st.flush()
}

// find returns the game of id, in memory or in the directory, counted as
// taken by a tab (release ends that); nil if there is none.
func (st *store) find(id string) *entry {
	if !validID(id) {
		return nil
	}
	st.start()
	st.mu.Lock()
	defer st.mu.Unlock()
	e := st.games[id]
	if e == nil {
		if st.dir == "" {
			return nil
		}
		fi, err := os.Stat(st.path(id))
		if err != nil {
			return nil
		}
		e = &entry{id: id, disk: -1, kept: true, seen: fi.ModTime()}
		st.games[id] = e
	}
	e.users++
	return e
}

// fresh returns a new game, with a new id, taken by a tab.
func (st *store) fresh() *entry {
	st.start()
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.newEntry()
}

// newEntry adds a game with a new id, taken by a tab (st.mu held).
func (st *store) newEntry() *entry {
	for {
		var b [16]byte
		rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		if st.games[id] != nil {
			continue
		}
		if st.dir != "" {
			if _, err := os.Stat(st.path(id)); err == nil {
				continue
			}
		}
		e := &entry{id: id, users: 1, seen: time.Now()}
		st.games[id] = e
		return e
	}
}

// liveOf returns the session that serves e, if any.
func (st *store) liveOf(e *entry) *session {
	st.mu.Lock()
	defer st.mu.Unlock()
	return e.live
}

// setLive makes ss the session of e, for the tab that took it.
func (st *store) setLive(e *entry, ss *session) {
	st.mu.Lock()
	defer st.mu.Unlock()
	e.live, e.seen = ss, time.Now()
	e.users--
}

// release ends a tab's taking of e without a session; a game with
// nothing kept is forgotten.
func (st *store) release(e *entry) {
	st.mu.Lock()
	defer st.mu.Unlock()
	e.users--
	st.forget(e)
}

// detach ends ss's serving of e (its tab has gone, or another took the
// game); a game with nothing kept is forgotten.
func (st *store) detach(e *entry, ss *session) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if e.live == ss {
		e.live, e.seen = nil, time.Now()
	}
	st.forget(e)
}

// forget drops e if nothing is kept for it and no tab has it (st.mu
// held).
func (st *store) forget(e *entry) {
	if !e.kept && e.live == nil && e.users == 0 && st.games[e.id] == e {
		delete(st.games, e.id)
	}
}

// put keeps a state of e's game, written to the directory by the writer.
func (st *store) put(e *entry, b []byte) {
	st.mu.Lock()
	st.keepState(e, b)
	st.mu.Unlock()
	st.wake()
}

// putApart keeps now as e's state and done as the state of a new game
// that no tab has, in one step: whoever reads the store sees both or
// neither.
func (st *store) putApart(e *entry, now, done []byte) {
	st.start()
	st.mu.Lock()
	d := st.newEntry()
	d.users--
	st.keepState(e, now)
	st.keepState(d, done)
	st.mu.Unlock()
	st.wake()
}

// keepState makes b the last state saved of e's game (st.mu held).
func (st *store) keepState(e *entry, b []byte) {
	if !e.kept {
		st.grew = true
	}
	e.saved, e.kept, e.seen = b, true, time.Now()
	e.ver++
}

// wake has the writer write the states saved.
func (st *store) wake() {
	select {
	case st.kick <- struct{}{}:
	default:
	}
}

// load returns the last state saved of e's game: the one in memory, or
// its file. A file that cannot be read is an error naming it.
func (st *store) load(e *entry) ([]byte, error) {
	st.mu.Lock()
	b, kept := e.saved, e.kept
	st.mu.Unlock()
	if b != nil || !kept || st.dir == "" {
		return b, nil
	}
	f, err := os.Open(st.path(e.id))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err = io.ReadAll(io.LimitReader(f, maxStateBytes+1))
	if err == nil && len(b) > maxStateBytes {
		err = fmt.Errorf("%s: over %d MiB", f.Name(), maxStateBytes>>20)
	}
	return b, err
}

// flush writes every state saved since the last write to its file; once
// written, a state is dropped from memory.
func (st *store) flush() {
	if st.dir == "" {
		return
	}
	st.disk.Lock()
	defer st.disk.Unlock()
	type job struct {
		e   *entry
		b   []byte
		ver int
	}
	var jobs []job
	st.mu.Lock()
	for _, e := range st.games {
		if e.saved != nil && e.disk != e.ver {
			jobs = append(jobs, job{e, e.saved, e.ver})
		}
	}
	st.mu.Unlock()
	for _, j := range jobs {
		err := os.MkdirAll(st.dir, 0o755)
		if err == nil {
			err = atomicfile.Write(st.path(j.e.id), func(w io.Writer) error {
				_, err := w.Write(j.b)
				return err
			})
		}
		st.mu.Lock()
		switch {
		case err != nil && !st.bad:
			st.bad = true
			st.note("cannot keep the games' state in %s: %v; they are kept in memory until a write works", st.dir, err)
		case err == nil:
			st.bad = false
			j.e.disk = j.ver
			if j.e.ver == j.ver {
				j.e.saved = nil
			}
		}
		st.mu.Unlock()
	}
}

// prune drops the games no tab has shown for st.keep, and past st.max
// games kept, those a tab showed longest ago: their state in memory and
// their file.
func (st *store) prune(now time.Time) {
	st.disk.Lock()
	defer st.disk.Unlock()
	st.mu.Lock()
	defer st.mu.Unlock()
	type kept struct {
		id   string
		seen time.Time
	}
	var all []kept
	busy := func(e *entry) bool { return e.live != nil || e.users > 0 }
	for id, e := range st.games {
		if e.kept && !busy(e) {
			all = append(all, kept{id, e.seen})
		}
	}
	if st.dir != "" {
		des, err := os.ReadDir(st.dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			st.note("reading %s: %v", st.dir, err)
		}
		for _, de := range des {
			id, ok := strings.CutSuffix(de.Name(), ".json")
			info, err := de.Info()
			if !ok || !validID(id) || err != nil {
				continue
			}
			if st.games[id] == nil {
				all = append(all, kept{id, info.ModTime()})
			}
		}
	}
	slices.SortFunc(all, func(a, b kept) int { return b.seen.Compare(a.seen) }) // newest first
	for i, k := range all {
		if i < st.max && now.Sub(k.seen) <= st.keep {
			continue
		}
		delete(st.games, k.id)
		if st.dir != "" {
			if err := os.Remove(st.path(k.id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				st.note("removing an old game's state: %v", err)
			}
		}
	}
}

// attach gives a tab's socket the game of session id: the one a tab shows
// now, which it takes over (the other tab is told so), or one saved, as
// it stood; else, or if its state is refused (named in a note), a new
// game with a new id.
func (s *Server) attach(id string, c *wsConn) *session {
	st := s.store
	if e := st.find(id); e != nil {
		e.turn.Lock()
		if old := st.liveOf(e); old != nil {
			old.post(old.takeOver)
			<-old.handed
		}
		ss := newSession(s, c)
		ss.game = e
		b, err := st.load(e)
		if err == nil && b != nil {
			err = ss.restore(b)
		}
		if err == nil && b != nil {
			ss.restored = true
			st.setLive(e, ss)
			e.turn.Unlock()
			return ss
		}
		if err != nil {
			s.note("the game state %s: %v; ignored", st.name(e.id), err)
		}
		e.turn.Unlock()
		st.release(e)
	}
	e := st.fresh()
	ss := newSession(s, c)
	ss.game = e
	st.setLive(e, ss)
	return ss
}

// name names a game's state in notes: its file, or its id in memory.
func (st *store) name(id string) string {
	if st.dir == "" {
		return "of game " + id
	}
	return st.path(id)
}
