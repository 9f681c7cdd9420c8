package broker

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/sower-engine/sower/bench/record"
)

// Written reads game records as match writes them (one JSON object a
// line, the form of --out) and returns the function Match.Written wants:
// it reports whether the records hold rec, the same game with the same
// content. The game number decides where to look; the content keeps a
// game of another match written to the same file from hiding this one's.
// A line that does not read (the torn end of a file) is passed over.
func Written(r io.Reader) (func(rec *record.GameRecord) bool, error) {
	seen := map[int][][sha256.Size]byte{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxMessage)
	for sc.Scan() {
		var rec record.GameRecord
		if json.Unmarshal(sc.Bytes(), &rec) != nil {
			continue
		}
		if h, ok := recordHash(&rec); ok {
			seen[rec.Game] = append(seen[rec.Game], h)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return func(rec *record.GameRecord) bool {
		h, ok := recordHash(rec)
		if !ok {
			return false
		}
		for _, s := range seen[rec.Game] {
			if s == h {
				return true
			}
		}
		return false
	}, nil
}

// recordHash returns the SHA-256 of a record's JSON.
func recordHash(rec *record.GameRecord) ([sha256.Size]byte, bool) {
	b, err := json.Marshal(rec)
	if err != nil {
		return [sha256.Size]byte{}, false
	}
	return sha256.Sum256(b), true
}

// WrittenPGN reads games as match writes them as PGN (the form of --pgn)
// and returns the function Match.PGNWritten wants: it reports whether the
// text holds rec's game exactly as rec.PGN writes it. A game's text
// starts with its Event tag after a blank line (or at the start) and
// runs to the next; the text decides, so a game cut short by a kill
// (the torn end of a file), or another match's game of the same number,
// does not hide rec.
func WrittenPGN(r io.Reader) (func(rec *record.GameRecord) bool, error) {
	seen := map[[sha256.Size]byte]bool{}
	br := bufio.NewReader(r)
	var game strings.Builder
	blank := true // the line before was blank, or there was none
	for {
		line, err := br.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if blank && strings.HasPrefix(line, pgnStart) || line == "" {
			if game.Len() > 0 {
				seen[sha256.Sum256([]byte(game.String()))] = true
			}
			game.Reset()
		}
		if line == "" {
			break
		}
		game.WriteString(line)
		blank = line == "\n"
	}
	return func(rec *record.GameRecord) bool {
		return seen[sha256.Sum256([]byte(rec.PGN()))]
	}, nil
}

// pgnStart starts the text of a game match writes as PGN.
const pgnStart = "[Event "
