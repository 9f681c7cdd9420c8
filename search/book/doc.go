// Package book holds Sower's proof books: the certificates of the Katro
// positions Sower has proven (docs/proofs.md), embedded in the binary, and
// a Library that reads them into cert.Book tables on demand, in the
// background, for the engine (search.Engine.SetBooks); its Close stops the
// loads still under way when its user is done.
//
// The certificates are in proofs/<game>/*.proof (the compact format,
// version 2), each proving its own root, the one its header names. The
// katro-4x6 certificates are the pieces of the proof that North wins
// katro-4x6 (after South's first moves, and deeper where a first move's
// proof is in pieces); the tests check each with the rules alone.
//
// Walking the proofs takes seconds, so a Library with a CacheDir keeps each
// book it makes as a file there (cert.Book.WriteTo; LoadCached) and reads it
// back the next time, under a name that changes with the certificates.
//
// Embedded, they cost the binary their size (about 4.3 MB) and give every
// user, a GUI that plugs the binary in included, perfect play in every
// position they reach, with no file to find or option to set.
package book
