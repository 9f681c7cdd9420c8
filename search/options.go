package search

import (
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/tables"
)

// Options are an engine's settings: what the protocol's options set
// (docs/protocol.md names each) and what the command line's flags set.
// Every user starts from DefaultOptions, so that the same settings mean
// the same search in the protocol, analyse, review, bench and datagen.
type Options struct {
	HashMiB int // Hash: the transposition table, in MiB
	Threads int // Threads: search threads (Lazy SMP)
	// Nets are the networks to evaluate with, each for its family's
	// positions (EvalType, EvalFile); a family without one is evaluated
	// linearly. NetLazy is EvalLazy, their lazy margin.
	Nets    []*nnue.Net
	NetLazy int
	// Tables are the Hoyito III endgame tables (TablePath), or nil;
	// TableEstimate is the option of that name.
	Tables        *tables.Tables
	TableEstimate bool
	// Prover and ProverThread are the Katro prover's options.
	Prover, ProverThread bool
	// Books are the proof books (ProofBook), or nil for none.
	Books Books
}

// DefaultOptions returns the protocol's defaults: a table of
// DefaultHashMiB, DefaultThreads threads, the linear evaluation
// everywhere (the caller adds each family's default network, which lives
// in package nnue: nnue.Default), EvalLazy DefaultNetLazy, no tables with
// TableEstimate on, the prover off (a measured loss where it proves
// nothing), and no proof books (the caller gives the embedded ones).
func DefaultOptions() Options {
	return Options{HashMiB: DefaultHashMiB, Threads: DefaultThreads, NetLazy: DefaultNetLazy, TableEstimate: true}
}

// NewEngineWith returns an engine configured by o.
func NewEngineWith(o Options) (*Engine, error) {
	e, err := NewEngine(o.HashMiB)
	if err != nil {
		return nil, err
	}
	if err := e.Configure(o); err != nil {
		return nil, err
	}
	return e, nil
}

// Configure applies o to the engine: every setting, the table reallocated
// only when its size changes. Like SetThreads, it is called between
// searches; on an error the settings before it may be partly changed.
func (e *Engine) Configure(o Options) error {
	if o.HashMiB != e.HashMiB() {
		if err := e.SetHash(o.HashMiB); err != nil {
			return err
		}
	}
	if err := e.SetThreads(o.Threads); err != nil {
		return err
	}
	e.nets = [2]*nnue.Net{}
	if err := e.SetNets(o.Nets, o.NetLazy); err != nil {
		return err
	}
	e.SetTables(o.Tables)
	e.SetTableEstimate(o.TableEstimate)
	e.SetProver(o.Prover)
	e.SetProverThread(o.ProverThread)
	e.SetBooks(o.Books)
	return nil
}
