package split

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"hash/fnv"
	"io"
	"strconv"
	"strings"

	"github.com/sower-engine/sower/board"
)

// magic is the first line of a tree file, with its version.
const magic = "sower-split 2"

// maxLine bounds a line of a tree file (a path of MaxDepth moves fits).
const maxLine = 1 << 16

// Save writes the tree as text: the header (the magic line with the
// version, the game, its rule options, the root, the game's history
// before it, the attacker, the leaf budget and the nodes searched), one
// line for each node, parents before their children,
//
//	<moves from the root, or ->\t<pn>\t<dn>\t<plies>\t<nodes>\t<searches>\t<path|->
//
// and an end line with the checksum (CRC-32, IEEE) of every byte before
// it. pn and dn are numbers or "inf"; plies is the proof's length (0
// unless pn is 0); nodes and searches are the leaf searches of that
// position; "path" marks a disproof that holds for the tree's path only.
// The numbers of an expanded node are written for people to read; Load
// computes them again from the leaves.
func (t *Tree) Save(w io.Writer) error {
	sum := crc32.NewIEEE()
	bw := bufio.NewWriter(io.MultiWriter(w, sum))
	r := &t.root.pos
	fmt.Fprintf(bw, "%s\ngame %s\nrules %s\nroot %s\nhistory %s\nattacker %s\nleaf-nodes %d\nsearched %d\n",
		magic, r.Variant().Name(), rulesText(r.Variant()), r.String(), historyText(t.history),
		strings.ToLower(t.attacker.String()), t.leafNodes, t.searched)
	var path []board.Move
	var write func(n *Node)
	write = func(n *Node) {
		p := "-"
		if len(path) > 0 {
			p = board.FormatMoves(path)
		}
		flag := "-"
		if n.onPath {
			flag = "path"
		}
		fmt.Fprintf(bw, "%s\t%s\t%s\t%d\t%d\t%d\t%s\n", p, number(n.pn), number(n.dn), n.plies, n.searched, n.visits, flag)
		for _, c := range n.children {
			path = append(path, c.move)
			write(c)
			path = path[:len(path)-1]
		}
	}
	write(t.root)
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "end %08x\n", sum.Sum32())
	return err
}

// rulesText writes v's rule options.
func rulesText(v *board.Variant) string {
	r := v.Rules()
	return fmt.Sprintf("%s %s %s %d", r.CaptureSide, r.LastFour, r.Repetition, r.NoCaptureLimit)
}

// historyText writes the game's history before the root: how many
// positions, and a hash (FNV-1a, 64 bits) of their keys.
func historyText(history []uint64) string {
	h := fnv.New64a()
	var b [8]byte
	for _, k := range history {
		binary.LittleEndian.PutUint64(b[:], k)
		h.Write(b[:])
	}
	return fmt.Sprintf("%d %016x", len(history), h.Sum64())
}

// number writes a proof or disproof number.
func number(n uint32) string {
	if n >= Infinity {
		return "inf"
	}
	return strconv.FormatUint(uint64(n), 10)
}

// Load reads a tree that Save wrote, for root (whose game's keys before it
// are history) and attacker, each leaf search then limited to leafNodes
// nodes (0: the file's). A file of another game, rule options, root,
// history or attacker, or one damaged (a line that does not parse, an
// illegal move, a node whose parent is missing, an expanded node without
// all its moves, a checksum that does not match) is refused with an error
// that names the line. The checksum catches accidents, not forgeries: a
// proof's certificate is what checks its leaves.
func Load(r io.Reader, root board.Position, history []uint64, attacker board.Side, leafNodes uint64) (*Tree, error) {
	lp := loader{sc: bufio.NewScanner(r), sum: crc32.NewIEEE()}
	lp.sc.Buffer(make([]byte, 0, 4096), maxLine)
	h, err := lp.header()
	if err != nil {
		return nil, err
	}
	if err := h.match(&root, history, attacker); err != nil {
		return nil, err
	}
	if leafNodes == 0 {
		leafNodes = h.leafNodes
	}
	t, err := New(root, history, attacker, leafNodes)
	if err != nil {
		return nil, err
	}
	t.searched = h.searched
	if err := lp.nodes(t); err != nil {
		return nil, err
	}
	return t, nil
}

// fileAttacker reads the header of a tree file and returns the side whose
// win the tree proves.
func fileAttacker(r io.Reader) (board.Side, error) {
	lp := loader{sc: bufio.NewScanner(r), sum: crc32.NewIEEE()}
	lp.sc.Buffer(make([]byte, 0, 4096), maxLine)
	h, err := lp.header()
	if err != nil {
		return 0, err
	}
	for _, s := range []board.Side{board.South, board.North} {
		if h.attacker == strings.ToLower(s.String()) {
			return s, nil
		}
	}
	return 0, fmt.Errorf("line 6: attacker %q: want south or north", clip(h.attacker))
}

// loader reads a tree file line by line, counting lines for the errors
// and summing them (each with its line end) for the checksum.
type loader struct {
	sc   *bufio.Scanner
	sum  hash.Hash32
	line int
}

// next returns the next line, or io.EOF at the end, adding the line (and
// its end) to the sum.
func (l *loader) next() (string, error) {
	if !l.sc.Scan() {
		if err := l.sc.Err(); err != nil {
			return "", fmt.Errorf("line %d: %w", l.line+1, err)
		}
		return "", io.EOF
	}
	l.line++
	text := l.sc.Text()
	l.sum.Write(l.sc.Bytes())
	l.sum.Write([]byte{'\n'})
	return text, nil
}

// header is a tree file's header.
type header struct {
	game, rules, root, history, attacker string
	leafNodes, searched                  uint64
}

// header reads the header's lines.
func (l *loader) header() (header, error) {
	var h header
	first, err := l.next()
	if err == io.EOF || (err == nil && first != magic) {
		return h, fmt.Errorf("not a tree file of sower solve --split (want %q as its first line)", magic)
	}
	if err != nil {
		return h, err
	}
	fields := []struct {
		name string
		text *string
		num  *uint64
	}{{"game", &h.game, nil}, {"rules", &h.rules, nil}, {"root", &h.root, nil}, {"history", &h.history, nil},
		{"attacker", &h.attacker, nil}, {"leaf-nodes", nil, &h.leafNodes}, {"searched", nil, &h.searched}}
	for _, f := range fields {
		s, err := l.next()
		if err == io.EOF {
			return h, fmt.Errorf("line %d: the file ends before its %q line", l.line+1, f.name)
		}
		if err != nil {
			return h, err
		}
		v, ok := strings.CutPrefix(s, f.name+" ")
		if !ok {
			return h, fmt.Errorf("line %d: want %q, found %q", l.line, f.name+" …", clip(s))
		}
		if f.text != nil {
			*f.text = v
			continue
		}
		if *f.num, err = strconv.ParseUint(v, 10, 64); err != nil {
			return h, fmt.Errorf("line %d: %s %q: want a count", l.line, f.name, clip(v))
		}
	}
	if h.leafNodes == 0 {
		return h, fmt.Errorf("line 7: leaf-nodes 0: want a budget of at least 1")
	}
	return h, nil
}

// match checks that the file is the tree of root, after history, for
// attacker.
func (h *header) match(root *board.Position, history []uint64, attacker board.Side) error {
	v := root.Variant()
	switch {
	case h.game != v.Name():
		return fmt.Errorf("the tree is of %s, not %s", clip(h.game), v.Name())
	case h.rules != rulesText(v):
		return fmt.Errorf("the tree is under the rule options %q (capture side, last four, repetition, no-capture limit), not %q", clip(h.rules), rulesText(v))
	case h.root != root.String():
		return fmt.Errorf("the tree's root is %s, not %s", clip(h.root), root.String())
	case h.history != historyText(history):
		return fmt.Errorf("the tree's root follows another game's history (%s, not %s: give the same --fen and --moves)", clip(h.history), historyText(history))
	case h.attacker != strings.ToLower(attacker.String()):
		return fmt.Errorf("the tree proves %s's win, not %s's", clip(h.attacker), strings.ToLower(attacker.String()))
	}
	return nil
}

// nodes reads the node lines into t, whose root is already made.
func (l *loader) nodes(t *Tree) error {
	byPath := map[string]*Node{}
	var all []*Node
	ended := false
	for {
		want := l.sum.Sum32()
		s, err := l.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if ended {
			return fmt.Errorf("line %d: a line after the end line", l.line)
		}
		if rest, ok := strings.CutPrefix(s, "end "); ok {
			if rest != fmt.Sprintf("%08x", want) {
				return fmt.Errorf("line %d: the checksum %q does not match the file's (%08x): the file was changed or damaged", l.line, clip(rest), want)
			}
			ended = true
			continue
		}
		n, err := l.node(t, s, byPath)
		if err != nil {
			return fmt.Errorf("line %d: %w", l.line, err)
		}
		all = append(all, n)
	}
	if len(all) == 0 {
		return fmt.Errorf("line %d: the file ends before the root's line", l.line+1)
	}
	if !ended {
		return fmt.Errorf("line %d: the file ends before its end line (cut short?)", l.line+1)
	}
	for i := len(all) - 1; i >= 0; i-- {
		n := all[i]
		if n.children == nil {
			continue
		}
		if want := len(n.pos.LegalMoves()); len(n.children) != want {
			return fmt.Errorf("the node %s has %d of its %d moves", pathName(n), len(n.children), want)
		}
		t.update(n)
	}
	t.size = len(all)
	return nil
}

// node reads one node line and links it into the tree.
func (l *loader) node(t *Tree, s string, byPath map[string]*Node) (*Node, error) {
	f := strings.Split(s, "\t")
	if len(f) != 7 {
		return nil, fmt.Errorf("want 7 tab-separated fields (path, pn, dn, plies, nodes, searches, path or -), found %d", len(f))
	}
	n, key, err := place(t, f[0], byPath)
	if err != nil {
		return nil, err
	}
	if n.pn, err = parseNumber("pn", f[1]); err != nil {
		return nil, err
	}
	if n.dn, err = parseNumber("dn", f[2]); err != nil {
		return nil, err
	}
	if n.pn == 0 && n.dn == 0 {
		return nil, errors.New("pn and dn both 0")
	}
	if (n.pn == 0) != (n.dn == Infinity) || (n.dn == 0) != (n.pn == Infinity) {
		return nil, fmt.Errorf("pn %s dn %s: a settled node has the other number inf, an open one neither", f[1], f[2])
	}
	plies, err := strconv.ParseUint(f[3], 10, 31)
	if err != nil || (plies != 0 && n.pn != 0) {
		return nil, fmt.Errorf("plies %q: want the proof's length (0 unless pn is 0)", clip(f[3]))
	}
	n.plies = int(plies)
	if n.searched, err = strconv.ParseUint(f[4], 10, 64); err != nil {
		return nil, fmt.Errorf("nodes %q: want a count", clip(f[4]))
	}
	visits, err := strconv.ParseUint(f[5], 10, 31)
	if err != nil {
		return nil, fmt.Errorf("searches %q: want a count", clip(f[5]))
	}
	n.visits = int(visits)
	switch f[6] {
	case "-":
	case "path":
		if n.dn != 0 {
			return nil, errors.New(`"path" marks a disproof, and dn is not 0`)
		}
		n.onPath = true
	default:
		return nil, fmt.Errorf("%q: want path or -", clip(f[6]))
	}
	byPath[key] = n
	return n, nil
}

// place finds the node of path text p: the root ("-") or a new child of a
// node already read, and returns it with its key in byPath.
func place(t *Tree, p string, byPath map[string]*Node) (*Node, string, error) {
	if p == "-" {
		if _, ok := byPath[""]; ok {
			return nil, "", errors.New("the root's line again")
		}
		return t.root, "", nil
	}
	if len(byPath) == 0 {
		return nil, "", fmt.Errorf("the path %q comes before the root's line", clip(p))
	}
	moves, err := t.root.pos.Variant().ParseMoves(p)
	if err != nil || len(moves) == 0 {
		return nil, "", fmt.Errorf("path %q: want the moves from the root, or - for the root", clip(p))
	}
	key := board.FormatMoves(moves)
	if _, ok := byPath[key]; ok {
		return nil, "", fmt.Errorf("path %q: a second line of the same node", clip(p))
	}
	parent, ok := byPath[board.FormatMoves(moves[:len(moves)-1])]
	if !ok {
		return nil, "", fmt.Errorf("path %q: its parent's line is missing before it", clip(p))
	}
	m := moves[len(moves)-1]
	c := &Node{move: m, pos: parent.pos, parent: parent}
	if !legal(&parent.pos, m) || !c.pos.Play(m) {
		return nil, "", fmt.Errorf("path %q: %s is not a legal move at %s", clip(p), m, parent.pos.String())
	}
	parent.children = append(parent.children, c)
	return c, key, nil
}

// legal reports whether m is a legal move of p.
func legal(p *board.Position, m board.Move) bool {
	for _, l := range p.LegalMoves() {
		if l == m {
			return true
		}
	}
	return false
}

// parseNumber reads a proof or disproof number.
func parseNumber(name, s string) (uint32, error) {
	if s == "inf" {
		return Infinity, nil
	}
	v, err := strconv.ParseUint(s, 10, 32)
	if err != nil || v >= uint64(Infinity) {
		return 0, fmt.Errorf("%s %q: want a number below %d, or inf", name, clip(s), uint64(Infinity))
	}
	return uint32(v), nil
}

// pathName names a node by its moves from the root.
func pathName(n *Node) string {
	var ms []board.Move
	for ; n.parent != nil; n = n.parent {
		ms = append(ms, n.move)
	}
	if len(ms) == 0 {
		return "at the root"
	}
	for i, j := 0, len(ms)-1; i < j; i, j = i+1, j-1 {
		ms[i], ms[j] = ms[j], ms[i]
	}
	return fmt.Sprintf("%q", board.FormatMoves(ms))
}

// clip shortens file text quoted in an error.
func clip(s string) string {
	const most = 40
	if len(s) > most {
		return s[:most] + "…"
	}
	return s
}
